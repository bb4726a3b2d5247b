/**
 * whittle's benchmark harness (GitHub issue #4): the papers' tables reproduced, plus speed and memory
 * figures. `npm run bench [-- --quick] [-- --only table3a,cache] [-- --cases a,b] [-- --out dir]`.
 *
 * Writes report.md and results.json to the output folder (default bench/results/<date>-<commit>/,
 * with "-quick" for quick runs and "-dirty" when the working tree has changes) and prints where. The
 * figures quoted in the READMEs come from such a folder, committed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { discoverSharedCases } from "./lib/cases.js";
import { createContext, type Section } from "./lib/context.js";
import { ms } from "./lib/format.js";
import { progress } from "./lib/log.js";
import { gitState, machineInfo } from "./lib/machine.js";
import { describeDefaults } from "./lib/defaults.js";
import { findRepoRoot, sharedRoot } from "./lib/paths.js";
import { algorithmsSection } from "./sections/algorithms.js";
import { bigcandSection } from "./sections/bigcand.js";
import { cacheSection } from "./sections/cache.js";
import { distributedSection } from "./sections/distributed.js";
import { efficiencySection } from "./sections/efficiency.js";
import { hddSection } from "./sections/hdd.js";
import { languagesSection } from "./sections/languages.js";
import { largeSection } from "./sections/large.js";
import { memorySection } from "./sections/memory.js";
import { jobsSection } from "./sections/jobs.js";
import { overheadSection } from "./sections/overhead.js";
import { parallelSection } from "./sections/parallel.js";
import { parseSection } from "./sections/parse.js";
import { scaleSection } from "./sections/scale.js";
import { splitFactorSection } from "./sections/split-factor.js";
import { survivorsSection } from "./sections/survivors.js";
import { table3aSection } from "./sections/table3a.js";

// Sections with different data types share one list; each one's data only meets its own renderer.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const SECTIONS: readonly Section<any>[] = [
  table3aSection,
  splitFactorSection,
  cacheSection,
  parallelSection,
  overheadSection,
  scaleSection,
  survivorsSection,
  parseSection,
  hddSection,
  algorithmsSection,
  languagesSection,
  memorySection,
  efficiencySection,
  largeSection,
  jobsSection,
  distributedSection,
  bigcandSection,
];

const USAGE = `usage: node dist/bench/run.js [--quick] [--only ${SECTIONS.map((s) => s.id).join(",")}] [--cases name,…] [--out <dir>]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string" },
      cases: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const only = values.only
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((id) => !SECTIONS.some((s) => s.id === id)) ?? [];
  if (unknown.length) throw new Error(`unknown section(s) ${unknown.join(", ")}; ${USAGE}`);
  const chosen = SECTIONS.filter((s) => !only || only.includes(s.id));

  const repoRoot = findRepoRoot();
  const outDir = resolve(
    values.out ?? join(repoRoot, "bench", "results", runName(repoRoot, values.quick ?? false)),
  );
  const sharedDir = sharedRoot(repoRoot);
  const cases = values.cases
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const found = discoverSharedCases(join(sharedDir, "bench", "cases"));
  // --cases: the shared cases of those names only (a section's own cases, such as large's csmith-c,
  // are asked for by name through ctx.wants).
  const shared = cases ? { ...found, cases: found.cases.filter((c) => cases.includes(c.name)) } : found;
  if (shared.note) progress(`NOTE: ${shared.note}`);
  const quick = values.quick ?? false;
  const tmpDir = mkdtempSync(join(tmpdir(), "whittle-bench-"));
  const ctx = createContext({
    quick,
    reps: quick ? 3 : 5,
    repoRoot,
    sharedDir,
    shared,
    tmpDir,
    ...(cases ? { cases } : {}),
  });
  const machine = machineInfo();
  const git = gitState(repoRoot);
  const mode = quick ? "quick" : "full";
  progress(
    `${mode} run of ${chosen.map((s) => s.id).join(", ")} on ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; ${shared.cases.length} shared cases`,
  );

  const started = performance.now();
  const results: Record<string, { title: string; durationMs: number; data?: unknown; error?: string }> = {};
  const parts: string[] = [];
  try {
    for (const section of chosen) {
      progress(`── ${section.title}`);
      const t0 = performance.now();
      try {
        const data: unknown = await section.run(ctx);
        const durationMs = performance.now() - t0;
        results[section.id] = { title: section.title, durationMs, data };
        parts.push(
          `## ${section.title}\n\n${section.render(data, ctx)}\n_Section time: ${ms(durationMs)}._\n`,
        );
        progress(`── ${section.id} done in ${ms(durationMs)}`);
      } catch (error) {
        const durationMs = performance.now() - t0;
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        results[section.id] = { title: section.title, durationMs, error: message };
        parts.push(`## ${section.title}\n\n**Failed:** \`${message.split("\n")[0]}\`\n`);
        progress(`── ${section.id} FAILED: ${message}`);
        process.exitCode = 1;
      }
    }
  } finally {
    rmSync(tmpDir, { recursive: true, force: true });
  }
  const durationMs = performance.now() - started;

  const header = [
    "# whittle benchmark report",
    "",
    `- Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryMB} MiB RAM, ${machine.platform}`,
    `- Node: ${machine.node}`,
    `- Date: ${machine.date}`,
    `- Commit: ${git}; whittle's defaults at start: ${describeDefaults()}`,
    `- Mode: **${mode}**${only ? ` (only ${only.join(", ")})` : ""}; timing figures are repeated ${ctx.reps} times, alternating between the compared variants, and given as median (min–max)`,
    `- Shared cases: ${shared.cases.length ? `${shared.cases.length} from ${join(sharedDir, "bench", "cases")}` : "none"}${shared.note ? ` — ${shared.note}` : ""}`,
    `- Total time: ${ms(durationMs)}`,
    "",
  ].join("\n");
  mkdirSync(outDir, { recursive: true });
  const reportPath = join(outDir, "report.md");
  const jsonPath = join(outDir, "results.json");
  writeFileSync(reportPath, `${header}\n${parts.join("\n")}`);
  writeFileSync(
    jsonPath,
    JSON.stringify(
      {
        machine,
        git,
        defaults: describeDefaults(),
        mode,
        only: only ?? null,
        durationMs,
        sharedNote: shared.note ?? null,
        sections: results,
      },
      null,
      2,
    ) + "\n",
  );
  progress(`done in ${ms(durationMs)}`);
  console.log(`report:  ${reportPath}`);
  console.log(`results: ${jsonPath}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/** The folder name of a run: its date, the commit it measured, and how. */
function runName(repoRoot: string, quick: boolean): string {
  const date = new Date().toISOString().slice(0, 10);
  const state = gitState(repoRoot);
  const commit = state.split(" ")[0] ?? "unknown";
  return `${date}-${commit}${state.includes("changed") ? "-dirty" : ""}${quick ? "-quick" : ""}`;
}
