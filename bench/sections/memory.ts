/**
 * Section 12: memory of a tree reduction of a large input (issue 9's goal: HDD* on a ~600 KB C input
 * under 500 MB peak RSS). The generated C of the hdd section (markedC: functions with loops, a switch,
 * calls and sizeof; one function renamed to the marker a grep oracle looks for), HDD* (`--phase
 * 'prune*'`, -j 1), once with the built-in C language (tree-sitter, what `whittle bug.c` uses) and
 * once with the shared ANTLR C grammar (`--grammar C.g4`), alternating, three times each. Peak RSS
 * is the whittle process's own (getrusage through the bench's RSS hook), its test processes apart.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, spreadText, table } from "../lib/format.js";
import { GRAMMARS, grammarArgs, grammarsDir } from "../lib/grammars.js";
import { progress } from "../lib/log.js";
import { spread, type Spread } from "../lib/stats.js";
import { runWhittle } from "../lib/whittle-cli.js";
import { writeMarkedC } from "./hdd.js";

const TARGET_BYTES = 500 * 1e6;
const MINUTE = 60_000;

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
  const { input, oracle, source } = writeMarkedC(dir, size, marker);

  const variants: { frontEnd: string; args: string[] }[] = [
    { frontEnd: "tree-sitter (built-in c)", args: [] },
  ];
  let note: string | null = null;
  if (existsSync(join(grammarsDir(ctx), GRAMMARS.c.files[0]!))) {
    variants.push({ frontEnd: "ANTLR (shared C.g4)", args: grammarArgs(ctx, GRAMMARS.c) });
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
        caseName: `generated-c-${size / 1000}k`,
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
    `Input: generated C, ${bytes(data.inputBytes)} (the hdd section's generator, one function renamed to the marker a grep oracle needs). HDD* (\`--phase 'prune*'\`, \`-j 1\`), ${data.repetitions} repetition(s) per front-end, alternating. Peak RSS of the whittle process (getrusage); target: under ${data.targetBytes / 1e6} MB = ${bytes(data.targetBytes)} (issue 9).`,
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
