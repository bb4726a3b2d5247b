import { createHash } from "node:crypto";
import { CommandOracle } from "../../src/oracle/command.js";
import type { Outcome } from "../../src/outcome.js";
import type { Oracle } from "../../src/reduce/evaluator.js";
import type { BenchCase } from "./cases.js";
import { pool } from "./timing.js";

/**
 * In-process stand-ins for the shared oracles, used where only test counts matter (or where the
 * oracle's own cost must not drown whittle's). Two kinds:
 *
 * - "exact": the whole oracle.sh, re-implemented (same Node for the JSON ones, so the same
 *   JSON.parse error messages). Its answers are spot-checked against oracle.sh in every run.
 * - "precheck": a necessary condition of oracle.sh (one of the conjuncts it ends with: a grep or a
 *   perl regex). When it fails, the candidate is not interesting without running gcc; when it holds,
 *   the real oracle.sh decides. This changes no answer, only how long an answer takes.
 */
export interface Mirror {
  readonly kind: "exact" | "precheck";
  readonly test: (candidate: Uint8Array) => boolean;
  readonly what: string;
}

const text = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString("latin1");

/** Lines as grep and awk see them: split at LF, a last line without LF counts, no empty tail. */
function linesOf(b: Uint8Array): string[] {
  const t = text(b);
  if (t === "") return [];
  const lines = t.split("\n");
  if (t.endsWith("\n")) lines.pop();
  return lines;
}

const hasAll = (b: Uint8Array, wanted: readonly string[]): boolean => {
  const set = new Set(linesOf(b));
  return wanted.every((w) => set.has(w));
};

function jsonError(b: Uint8Array, pattern: RegExp): boolean {
  try {
    JSON.parse(Buffer.from(b).toString("utf8"));
  } catch (error) {
    return pattern.test((error as Error).message);
  }
  return false;
}

const ZELLER =
  /[a-z]\(double\s+z\[\],\s*int\s+n\)\s*\{\s*int\s+i,\s*j;\s*(i\s*=\s*0;\s*)?for\s*\([^);]*;[^);]*;[^)]*\)\s*\{\s*i\s*=\s*i\s*\+\s*j\s*\+\s*1;\s*z\[i\]\s*=\s*z\[i\]\s*\*\s*\(z\[0\]\s*\+\s*(1|0|1\.0)\);\s*\}\s*return\s+z\[n\];\s*\}/;

export const MIRRORS: Readonly<Record<string, Mirror>> = {
  "mock-a": {
    kind: "exact",
    what: "lines 5, 8 present and (2 present or 7 absent)",
    test: (b) => {
      const set = new Set(linesOf(b));
      return set.has("5") && set.has("8") && (set.has("2") || !set.has("7"));
    },
  },
  "mock-b": {
    kind: "exact",
    what: "lines 1..8 present",
    test: (b) => hasAll(b, ["1", "2", "3", "4", "5", "6", "7", "8"]),
  },
  "mock-c": {
    kind: "exact",
    what: "lines 1,2,3,4,6,8 present",
    test: (b) => hasAll(b, ["1", "2", "3", "4", "6", "8"]),
  },
  "mock-d": {
    kind: "exact",
    what: "exactly 50 lines match ^[0-9]*[02468]$ (grep -cxE)",
    test: (b) => linesOf(b).filter((l) => /^[0-9]*[02468]$/.test(l)).length === 50,
  },
  "lithium-product-35": {
    kind: "exact",
    what: "awk: product of the all-digit lines mod 35 is 0",
    test: (b) => {
      let p = 1;
      for (const l of linesOf(b)) if (/^[0-9]+$/.test(l)) p = (p * Number(l)) % 35;
      return p === 0;
    },
  },
  "xml-title": { kind: "exact", what: "grep -q title", test: (b) => text(b).includes("title") },
  "mozilla-select-html": {
    kind: "exact",
    what: "grep -q '<SELECT[^>]*>'",
    test: (b) => /<SELECT[^>\n]*>/.test(text(b)),
  },
  "json-obj-arr-87": {
    kind: "exact",
    what: 'JSON.parse, then JSON.stringify(value) includes "87"',
    test: (b) => {
      try {
        return JSON.stringify(JSON.parse(Buffer.from(b).toString("utf8"))).includes("87");
      } catch {
        return false;
      }
    },
  },
  "json-invalid-escape": {
    kind: "exact",
    what: "JSON.parse fails with /Bad escaped character/",
    test: (b) => jsonError(b, /Bad escaped character/),
  },
  "json-extra-comma": {
    kind: "exact",
    what: "JSON.parse fails with /Expected double-quoted property name/",
    test: (b) => jsonError(b, /Expected double-quoted property name/),
  },
  "zeller-bug-c": {
    kind: "precheck",
    what: "the perl regex of mult()'s loop, before gcc",
    test: (b) => ZELLER.test(text(b)),
  },
  "cvise-blocksort-c": {
    kind: "precheck",
    what: "grep -qw nextHi, before gcc",
    test: (b) => /(?<![A-Za-z0-9_])nextHi(?![A-Za-z0-9_])/.test(text(b)),
  },
  "creduce-file2-c": {
    kind: "precheck",
    what: "grep -q '<<', before gcc",
    test: (b) => text(b).includes("<<"),
  },
};

/** Oracles of generated cases (in-process by nature), registered by the generators. */
export const GENERATED_ORACLES = new Map<string, Mirror>();

/** The real oracle.sh of a shared case, through whittle's command oracle (a fresh temp dir per test). */
export function shellOracle(c: BenchCase, command?: readonly string[]): Oracle {
  if (c.oraclePath === undefined && command === undefined) throw new Error(`${c.name} has no oracle.sh`);
  const oracle = new CommandOracle({
    command: command ?? [c.oraclePath!, "{}"],
    fileName: c.inputName,
    captureOutput: false, // as the whittle command runs its tests
  });
  return (candidate, signal) => oracle.test(candidate, signal);
}

export function contentKey(b: Uint8Array): string {
  return createHash("sha1").update(b).digest("hex");
}

/**
 * Remembers every outcome of a (deterministic) oracle by content, across reductions, so that repeated
 * runs (other ν, other cache kinds) pay only for candidates never seen before. It changes no test
 * count: whittle counts its own oracle calls, whatever answers them.
 */
export class OutcomeMemo {
  readonly #known = new Map<string, Outcome>();
  readonly #pending = new Map<string, Promise<Outcome>>();
  realCalls = 0;
  hits = 0;

  wrap(inner: Oracle): Oracle {
    return async (candidate, signal) => {
      const key = contentKey(candidate);
      const known = this.#known.get(key);
      if (known !== undefined) {
        this.hits++;
        return known;
      }
      const pending = this.#pending.get(key);
      if (pending) {
        this.hits++;
        return pending;
      }
      this.realCalls++;
      const run = (async (): Promise<Outcome> => {
        const answer = await inner(candidate, signal);
        return answer === true ? "interesting" : answer === false ? "not-interesting" : answer;
      })();
      this.#pending.set(key, run);
      try {
        const outcome = await run;
        if (outcome !== "timeout") this.#known.set(key, outcome);
        return outcome;
      } finally {
        this.#pending.delete(key);
      }
    };
  }

  /** Answers only from memory (a replay); unknown candidates go to `fallback` and are counted. */
  replay(fallback: Oracle): { oracle: Oracle; misses: () => number } {
    let misses = 0;
    const known = this.#known;
    return {
      oracle: (candidate, signal) => {
        const outcome = known.get(contentKey(candidate));
        if (outcome !== undefined) return outcome;
        misses++;
        return fallback(candidate, signal);
      },
      misses: () => misses,
    };
  }

  get size(): number {
    return this.#known.size;
  }
}

/** What a mirror answered on sampled candidates, checked against oracle.sh after the runs. */
export interface MirrorCheck {
  readonly case: string;
  readonly kind: Mirror["kind"];
  readonly what: string;
  readonly checked: number;
  readonly agreed: number;
  readonly disagreements: string[];
}

/**
 * The oracle a benchmark uses for one case when only counts matter: the exact mirror, or the
 * precheck and then oracle.sh, or oracle.sh alone; memoized by content; with a sample of the mirror's
 * answers kept for verification against oracle.sh.
 */
export class CaseOracle {
  readonly memo = new OutcomeMemo();
  readonly mirror: Mirror | undefined;
  readonly oracle: Oracle;
  readonly #samples = new Map<string, { candidate: Uint8Array; mirror: boolean }>();
  #seen = 0;
  /** Executions of oracle.sh (the expensive ones), after memo and mirror. */
  shellCalls = 0;

  constructor(
    readonly benchCase: BenchCase,
    useMirror = true,
  ) {
    this.mirror = useMirror
      ? (MIRRORS[benchCase.name] ?? GENERATED_ORACLES.get(benchCase.name))
      : GENERATED_ORACLES.get(benchCase.name);
    const shell = benchCase.oraclePath !== undefined ? shellOracle(benchCase) : undefined;
    const mirror = this.mirror;
    const inner: Oracle = async (candidate, signal) => {
      if (mirror) {
        const answer = mirror.test(candidate);
        this.#sample(candidate, answer);
        if (mirror.kind === "exact" || !answer) return answer;
      }
      if (!shell) throw new Error(`${benchCase.name}: no oracle`);
      this.shellCalls++;
      return shell(candidate, signal);
    };
    this.oracle = this.memo.wrap(inner);
  }

  /** Keeps the first 12 distinct candidates and then every 23rd, at most 60. */
  #sample(candidate: Uint8Array, answer: boolean): void {
    const n = this.#seen++;
    if (this.#samples.size >= 60 || !(n < 12 || n % 23 === 0)) return;
    // A precheck is only checked where it said "no" (where it said "yes", oracle.sh ran anyway).
    if (this.mirror?.kind === "precheck" && answer) return;
    this.#samples.set(contentKey(candidate), { candidate: candidate.slice(), mirror: answer });
  }

  /** Runs oracle.sh on the sampled candidates (plus the input and an empty file, for exact mirrors). */
  async verify(limit = 60, concurrency = 4): Promise<MirrorCheck | undefined> {
    const mirror = this.mirror;
    if (!mirror || this.benchCase.oraclePath === undefined) return undefined;
    const shell = shellOracle(this.benchCase);
    const samples = [...this.#samples.values()].slice(0, limit);
    if (mirror.kind === "exact") {
      for (const candidate of [this.benchCase.input, new Uint8Array(0)]) {
        samples.push({ candidate, mirror: mirror.test(candidate) });
      }
    }
    let agreed = 0;
    const disagreements: string[] = [];
    await pool(samples, concurrency, async (s) => {
      const real = (await shell(s.candidate, new AbortController().signal)) === "interesting";
      if (real === s.mirror) agreed++;
      else
        disagreements.push(
          `${JSON.stringify(text(s.candidate).slice(0, 60))}: mirror ${s.mirror}, oracle.sh ${real}`,
        );
    });
    return {
      case: this.benchCase.name,
      kind: mirror.kind,
      what: mirror.what,
      checked: samples.length,
      agreed,
      disagreements,
    };
  }
}
