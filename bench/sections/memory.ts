/**
 * Section 12: memory of a tree reduction of a large input (issue 9's goal: HDD* on a ~600 KB C input
 * generated with csmith under 500 MB peak RSS). The input: a csmith program (CSMITH_ARGS, about
 * 580 KiB) with its `func_1` renamed to the marker a grep oracle looks for, when `csmith` is on PATH
 * or can be installed (Debian's package; a benchmark-only tool); else the generated C of the hdd
 * section (markedC: functions with loops, a switch, calls and sizeof; one function renamed to the
 * marker), and the report says so. HDD* (`--phase 'prune*'`, -j 1), once with the built-in C
 * language (tree-sitter, what `whittle bug.c` uses) and once with the shared ANTLR C grammar
 * (`--grammar C.g4`), alternating, three times each. Peak RSS is the whittle process's own
 * (getrusage through the bench's RSS hook), its test processes apart.
 *
 * Both parse csmith's C without syntax errors. (Before whittle's ANTLR parser found lookahead DFA
 * states by their configurations (src/grammar/antlr/dfa.ts), hash collisions in antlr4ng's DFA made
 * four false syntax errors in this input, and recovery skipped its second half as unstructured tokens.)
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, spreadText, table } from "../lib/format.js";
import { GRAMMARS, grammarArgs, grammarsDir } from "../lib/grammars.js";
import { commandVersion, ensurePackage } from "../lib/debian.js";
import { progress } from "../lib/log.js";
import { spread, type Spread } from "../lib/stats.js";
import { MINUTE, runWhittle } from "../lib/whittle-cli.js";
import { writeGrepCase, writeMarkedC } from "./hdd.js";

const TARGET_BYTES = 500 * 1e6;
/** csmith's options for the input: seed 3 with at most 40 functions gives 592,602 bytes (csmith 2.3.0). */
const CSMITH_ARGS = ["--seed", "3", "--max-funcs", "40"] as const;

/**
 * The csmith input in `dir` (input.c, oracle.sh), or undefined when csmith is not installed and
 * cannot be (ensurePackage: Debian's package, installed when this runs as root with apt-get;
 * `section` names the section in the progress line).
 */
export function csmithC(
  dir: string,
  marker: string,
  section: string,
): { input: string; oracle: string; source: string; generator: string } | undefined {
  mkdirSync(dir, { recursive: true });
  // In `dir`: csmith writes a platform.info file where it runs, --version included.
  const ensured = ensurePackage("csmith", () => commandVersion("csmith", dir), section);
  if (!("version" in ensured)) return undefined;
  const raw = join(dir, "csmith.c");
  const made = spawnSync("csmith", [...CSMITH_ARGS, "-o", raw], {
    cwd: dir,
    encoding: "utf8",
    timeout: 5 * MINUTE,
  });
  if (made.status !== 0) return undefined;
  const source = readFileSync(raw, "utf8").replace(/\bfunc_1\b/g, marker);
  return {
    ...writeGrepCase(dir, source, marker),
    generator: `${ensured.version}${ensured.installed ? " (installed by this run)" : ""} ${CSMITH_ARGS.join(" ")}, \`func_1\` renamed to ${marker}`,
  };
}

interface FrontEndFigures {
  frontEnd: string;
  argv: string[];
  /** Peak RSS per repetition, bytes. */
  maxRss: Spread;
  wallMs: Spread;
  tests: number[];
  results: string[];
  interesting: (boolean | null)[];
}

export interface MemoryData {
  inputBytes: number;
  /** How the input was made: csmith and its options, or the hdd section's generator. */
  generator: string;
  repetitions: number;
  frontEnds: FrontEndFigures[];
  targetBytes: number;
  note: string | null;
}

async function run(ctx: BenchContext): Promise<MemoryData> {
  const size = ctx.quick ? 100_000 : 600_000;
  const repetitions = ctx.quick ? 1 : 3;
  const marker = "marker_600k";
  const dir = join(ctx.tmpDir, "memory");
  // csmith makes programs of its own size: the quick mode keeps the generator's 100 KB.
  const csmith = ctx.quick ? undefined : csmithC(dir, marker, "memory");
  const { input, oracle, source } = csmith ?? writeMarkedC(dir, size, marker);
  const generator =
    csmith?.generator ??
    `the hdd section's generator${ctx.quick ? "" : " (csmith is not installed)"}, one function renamed to ${marker}`;

  const variants: { frontEnd: string; args: string[] }[] = [
    { frontEnd: "tree-sitter (built-in c)", args: [] },
  ];
  let note: string | null = null;
  if (existsSync(join(grammarsDir(ctx), GRAMMARS.c.files[0]!))) {
    variants.push({
      frontEnd: "ANTLR (shared C.g4)",
      args: grammarArgs(ctx, GRAMMARS.c),
    });
  } else note = "../shared not found: the ANTLR C grammar's run is left out";

  const figures = variants.map(() => ({
    rss: [] as number[],
    wall: [] as number[],
    tests: [] as number[],
    results: [] as string[],
    interesting: [] as (boolean | null)[],
    argv: [] as string[],
  }));
  for (let rep = 0; rep < repetitions; rep++) {
    for (const [i, v] of variants.entries()) {
      const r = await runWhittle(ctx, {
        section: "memory",
        caseName: csmith ? "csmith-c" : `generated-c-${size / 1000}k`,
        variant: `${v.frontEnd} #${rep + 1}`,
        label: "HDD*",
        input,
        inputName: "input.c",
        oracle,
        args: [...v.args, "--phase", "prune*"],
        budgetMs: (ctx.quick ? 5 : 12) * MINUTE,
        dir: join(dir, `run-${i}-${rep}`),
      });
      const f = figures[i]!;
      f.rss.push(r.maxRssBytes);
      f.wall.push(r.wallMs);
      f.tests.push(r.tests);
      f.results.push(r.result);
      f.interesting.push(r.interesting);
      f.argv = r.argv.map((a) => a.replaceAll(dir, "$DIR"));
      progress(
        `memory: ${v.frontEnd} #${rep + 1}: peak RSS ${bytes(r.maxRssBytes)}, ${r.tests} tests, ${ms(r.wallMs)}`,
      );
    }
  }
  return {
    inputBytes: Buffer.byteLength(source),
    generator,
    repetitions,
    targetBytes: TARGET_BYTES,
    note,
    frontEnds: variants.map((v, i) => {
      const f = figures[i]!;
      return {
        frontEnd: v.frontEnd,
        argv: f.argv,
        maxRss: spread(f.rss),
        wallMs: spread(f.wall),
        tests: f.tests,
        results: f.results,
        interesting: f.interesting,
      };
    }),
  };
}

function render(data: MemoryData): string {
  const rows = data.frontEnds.map((f) => [
    f.frontEnd,
    `${bytes(f.maxRss.median)} (${bytes(f.maxRss.min)}–${bytes(f.maxRss.max)})`,
    f.maxRss.max < data.targetBytes ? "yes" : "no",
    f.tests.join(", "),
    spreadText(
      { ...f.wallMs, median: f.wallMs.median / 1000, min: f.wallMs.min / 1000, max: f.wallMs.max / 1000 },
      1,
    ) + " s",
    [...new Set(f.results)].join(", ") +
      (f.interesting.every((x) => x === true) ? "" : " (a result NOT interesting)"),
  ]);
  return [
    `Input: C, ${bytes(data.inputBytes)}, from ${data.generator}; the oracle greps for the marker. Both front-ends parse it without syntax errors. HDD* (\`--phase 'prune*'\`, \`-j 1\`), ${data.repetitions} repetition(s) per front-end, alternating. Peak RSS of the whittle process (getrusage); target: under ${data.targetBytes / 1e6} MB = ${bytes(data.targetBytes)} (issue 9).`,
    "",
    table(["front-end", "peak RSS, median (min–max)", "under target", "tests", "wall", "result"], rows),
    "",
    ...data.frontEnds.map((f) => `- ${f.frontEnd}: \`${f.argv.join(" ")}\``),
    ...(data.note ? [`- ${data.note}`] : []),
    "",
  ].join("\n");
}

export const memorySection: Section<MemoryData> = {
  id: "memory",
  title: "Memory of a tree reduction of a large input",
  run,
  render,
};
