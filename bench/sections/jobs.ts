/**
 * Section `jobs` (issue 23, "Jobs that pay"): does `-j N` make whittle's default pipeline faster,
 * to the same result, when a test is slow? Every shared case up to 64 KiB with an oracle, reduced by
 * the command with `-j 1, 2, 4, 8`, each test taking 0.2 s longer than its oracle: a wrapper sleeps,
 * then answers from a memo of the real oracle's answers by content (filled by unslept warm-up runs
 * at every jobs level), so that the 2 cores of this machine, shared with the oracles' compilers, do
 * not limit what is measured: the parallelism the algorithms offer. The levels alternate in their
 * order from case to case. Reported: wall, tests (speculative ones included), the speed-up against
 * `-j 1`, and whether the result is byte for byte the `-j 1` result (the deterministic default).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { BenchContext, Section } from "../lib/context.js";
import { fixed, ms, table } from "../lib/format.js";
import { progress } from "../lib/log.js";
import { memoTest, type MemoTestKind } from "../lib/memo-test.js";
import { MINUTE, runWhittle, type WhittleRun } from "../lib/whittle-cli.js";
import { MAX_INPUT_BYTES } from "./efficiency.js";

/** How much longer each test takes than its oracle. */
export const SLEEP_S = 0.2;
/** Issue 23's goal: `-j 8` at least this many times as fast as `-j 1`, to the same result. */
export const GOAL_SPEEDUP = 4;

const LEVELS = [1, 2, 4, 8] as const;
const QUICK_CASES = ["zeller-bug-c", "cvise-blocksort-c", "mozilla-select-html"];
const BUDGET_MS = 20 * MINUTE;

export interface JobsRun {
  jobs: number;
  wallMs: number;
  tests: number;
  result: string;
  nonWsChars: number;
  /** The output is byte for byte the `-j 1` run's. */
  sameAsOne: boolean;
  interesting: boolean | null;
  load: number;
}

export interface JobsCase {
  case: string;
  runs: JobsRun[];
}

export interface JobsData {
  sleepS: number;
  /** How the slow test was built (bench/lib/memo-test.ts); absent in results before it was recorded. */
  wrapper?: MemoTestKind;
  levels: number[];
  cases: JobsCase[];
}

function caseRun(
  run: WhittleRun,
  jobs: number,
  output: Buffer | undefined,
  one: Buffer | undefined,
  load: number,
): JobsRun {
  return {
    jobs,
    wallMs: run.wallMs,
    tests: run.tests,
    result: run.result,
    nonWsChars: run.nonWsChars,
    sameAsOne: output !== undefined && one !== undefined && output.equals(one),
    interesting: run.interesting,
    load,
  };
}

/** What the report says of the slow test's build. */
function wrapperWords(kind: MemoTestKind | undefined): string {
  if (kind === "c") return "one compiled C program, bench/lib/memo-test.ts";
  const script = "a bash script running `sleep`, `sha256sum`, `cut` and `cat`";
  return kind === "bash" ? `${script}, as no C compiler was found` : script;
}

export const jobsSection: Section<JobsData> = {
  id: "jobs",
  title: "Jobs that pay: -j 1, 2, 4, 8 with a test 0.2 s slower",
  async run(ctx: BenchContext): Promise<JobsData> {
    const all = ctx.shared.cases.filter((c) => c.oraclePath && c.input.length <= MAX_INPUT_BYTES);
    const cases = ctx.quick ? all.filter((c) => QUICK_CASES.includes(c.name)) : all;
    const out: JobsCase[] = [];
    let kind: MemoTestKind | undefined;
    for (const [i, c] of cases.entries()) {
      const root = join(ctx.tmpDir, "jobs", c.name);
      const memo = join(root, "memo");
      mkdirSync(memo, { recursive: true });
      const warm = join(root, "warm");
      const slow = join(root, "slow");
      kind = memoTest(warm, c.oraclePath!, memo, 0, kind);
      memoTest(slow, c.oraclePath!, memo, SLEEP_S, kind);
      const input = join(root, c.inputName);
      writeFileSync(input, c.input);
      const once = (jobs: number, oracle: string, tag: string): Promise<WhittleRun> =>
        runWhittle(ctx, {
          section: "jobs",
          caseName: c.name,
          variant: `-j ${jobs}`,
          label: `-j ${jobs} ${tag}`,
          input,
          inputName: c.inputName,
          oracle,
          args: ["-j", String(jobs), "--timeout", "60"],
          budgetMs: BUDGET_MS,
          dir: join(root, `${tag}-j${jobs}`),
          zeroConfig: true,
        });
      for (const jobs of LEVELS) await once(jobs, warm, "warm");
      progress(`jobs: ${c.name}: memo warmed`);
      const order = i % 2 === 0 ? [...LEVELS] : [...LEVELS].reverse();
      const runs = new Map<number, { run: WhittleRun; load: number; output: Buffer | undefined }>();
      for (const jobs of order) {
        const load = loadavg()[0]!;
        const run = await once(jobs, slow, "slow");
        const file = join(root, `slow-j${jobs}`, `out-${c.inputName}`);
        runs.set(jobs, { run, load, output: existsSync(file) ? readFileSync(file) : undefined });
        progress(
          `jobs: ${c.name} -j ${jobs}: ${run.tests} tests, ${ms(run.wallMs)}, ${run.nonWsChars} chars`,
        );
      }
      const one = runs.get(1)!.output;
      out.push({
        case: c.name,
        runs: LEVELS.map((jobs) => {
          const r = runs.get(jobs)!;
          return caseRun(r.run, jobs, r.output, one, r.load);
        }),
      });
    }
    return { sleepS: SLEEP_S, wrapper: kind, levels: [...LEVELS], cases: out };
  },
  render(data: JobsData): string {
    const lines: string[] = [];
    lines.push(
      `Each test takes ${data.sleepS} s longer than its oracle (a wrapper sleeps, then answers from a memo of the real oracle's answers, filled by unslept warm-up runs; ${wrapperWords(data.wrapper)}), so that the machine's 2 cores do not limit the measurement. Default pipeline, \`--timeout 60\`; the levels' order alternates from case to case. Speed-up = wall of \`-j 1\` / wall of \`-j N\`; tests include speculative ones.`,
      "",
    );
    const rows = data.cases.map((c) => {
      const one = c.runs.find((r) => r.jobs === 1)!;
      return [
        c.case,
        ...c.runs.map(
          (r) =>
            `${ms(r.wallMs)}, ${r.tests} tests${r.jobs === 1 ? "" : `, ×${fixed(one.wallMs / r.wallMs)}`}${r.jobs !== 1 && !r.sameAsOne ? ", DIFFERENT RESULT" : ""}${r.interesting === false ? ", NOT INTERESTING" : ""}`,
        ),
      ];
    });
    const total = (jobs: number): number =>
      data.cases.reduce((s, c) => s + c.runs.find((r) => r.jobs === jobs)!.wallMs, 0);
    const tests = (jobs: number): number =>
      data.cases.reduce((s, c) => s + c.runs.find((r) => r.jobs === jobs)!.tests, 0);
    rows.push([
      "**total**",
      ...data.levels.map(
        (jobs) =>
          `${ms(total(jobs))}, ${tests(jobs)} tests${jobs === 1 ? "" : `, ×${fixed(total(1) / total(jobs))}`}`,
      ),
    ]);
    lines.push(table(["case", ...data.levels.map((j) => `-j ${j}`)], rows));
    const same = data.cases.every((c) => c.runs.every((r) => r.sameAsOne || r.jobs === 1));
    const speedup = total(1) / total(8);
    lines.push(
      `Every result the same as \`-j 1\`'s: ${same ? "yes" : "**no**"}. Goal (issue 23): \`-j 8\` at least ${GOAL_SPEEDUP}× as fast as \`-j 1\` to the same result: ${speedup >= GOAL_SPEEDUP && same ? "✓" : "✗"} (×${fixed(speedup)} in total). Load (1-minute average) at the runs' starts: ${fixed(Math.min(...data.cases.flatMap((c) => c.runs.map((r) => r.load))), 1)}–${fixed(Math.max(...data.cases.flatMap((c) => c.runs.map((r) => r.load))), 1)}.`,
      "",
    );
    return lines.join("\n");
  },
};
