/**
 * The command line's options of the reduction are derived from REDUCE_OPTIONS: every option of the
 * table can be set through its flags, every flag is the table's or one that only the command line
 * has, the defaults are the library's, --stats records the table, and errors name the flag.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Option } from "commander";
import { buildProgram, parseArgs } from "../../src/cli/args.js";
import { writeStats, type StatsSummary } from "../../src/cli/stats-file.js";
import { DEFAULTS } from "../../src/index.js";
import { OPTION_LIST, resolveOptions } from "../../src/reduce/options.js";
import { runWhittle, scratch } from "../helpers/cli.js";

/**
 * The flags that are not options of the reduction: files, the test, the oracle's --timeout, the
 * grammar and the output. A new flag goes either into REDUCE_OPTIONS or, if reduce() has no such
 * option, here.
 */
const CLI_ONLY = [
  "-V, --version",
  "--test <script>",
  "--timeout <seconds>",
  "--max-time <duration>",
  "--max-tests <n>",
  "-o, --output <file>",
  "--in-place",
  "--stats <file>",
  "--report <file>",
  "--events <file>",
  "--resume",
  "--queue <url>",
  "--grammar <file>",
  "--format <file>",
  "--language <name>",
  "--list-languages",
  "--start <rule>",
  "--grammar-helpers <module>",
  "--allow-syntax-errors",
  "--replacements <file>",
  "--hoist-compatible <file>",
  "--phase <phase>",
  "--no-squeeze",
  "--no-flatten-recursion",
  "--no-skip-unremovable",
  "-q, --quiet",
  "-v, --verbose",
  "--config <file>",
  "--no-config",
  "--print-config",
  "--repeat <m>",
  "--need <k>",
  "--expect-exit <n>",
  "--expect-signal <signal>",
  "--expect-stdout <regex>",
  "--expect-stderr <regex>",
  "--same-failure",
];

/** Arguments and the values they give, for the options that take a value but have no list of choices. */
const SAMPLES: Record<string, [text: string, value: unknown][]> = {
  splitFactor: [
    ["3", 3],
    ["inf", Infinity],
  ],
  jobs: [["3", 3]],
};

const reduceOptions = (...flags: string[]) => parseArgs(["in.txt", ...flags, "--test", "t.sh"], "0").reduce;

test("every flag is an option of the table's or one of the command line's own", () => {
  const table = OPTION_LIST.flatMap(([, spec]) => Object.keys(spec.cli));
  const registered = buildProgram("0").options.map((option) => option.flags);
  assert.deepEqual([...registered].sort(), [...table, ...CLI_ONLY].sort());
});

test("every option of the table is set by its flags, to each value it can take", () => {
  for (const [name, spec] of OPTION_LIST) {
    const given: unknown[] = [];
    for (const flags of Object.keys(spec.cli)) {
      const option = new Option(flags);
      if (option.isBoolean() || option.negate) {
        given.push(reduceOptions(option.long!)[name]);
        assert.equal(given.at(-1), !option.negate, flags);
        continue;
      }
      const samples = spec.choices?.map((choice) => [choice, choice]) ?? SAMPLES[name];
      assert.ok(samples, `${name}: add examples of its arguments to SAMPLES`);
      for (const [text, value] of samples) {
        for (const word of [option.long, option.short]) {
          if (word === undefined) continue;
          given.push(reduceOptions(word, String(text))[name]);
          assert.equal(given.at(-1), value, `${word} ${String(text)}`);
        }
      }
    }
    assert.ok(
      given.some((value) => value !== (DEFAULTS as Record<string, unknown>)[name]),
      `${name} can be changed from its default`,
    );
  }
});

test("without flags, the command line gives the library's defaults (jobs is left to reduce())", () => {
  assert.deepEqual(reduceOptions(), { ...DEFAULTS, jobs: undefined });
});

test("--help shows each flag of the table with its help line, and the default", () => {
  const help = buildProgram("0").helpInformation().replace(/\s+/g, " ");
  for (const [, spec] of OPTION_LIST) {
    for (const [flags, line] of Object.entries(spec.cli)) assert.ok(help.includes(`${flags} ${line}`), flags);
  }
  assert.ok(help.includes("--dd-star repeat ddmin until it removes nothing (DD*) (default: on)"));
  assert.ok(
    help.includes(
      "-j, --jobs <n> tests run at once (default: available parallelism; 1 for a test under 50 ms)",
    ),
  );
  assert.ok(help.includes('(choices: "line", "char", "both", default: "both")'));
});

test("a value an option does not accept is refused (exit 2), naming the flag as the user writes it", async () => {
  for (const [name, spec] of OPTION_LIST) {
    for (const flags of Object.keys(spec.cli)) {
      const option = new Option(flags);
      if (option.isBoolean() || option.negate) continue;
      const run = await runWhittle(["in.txt", `${option.long!}=bogus`, "--test", "t.sh"]);
      assert.equal(run.code, 2, flags);
      assert.match(run.stderr, new RegExp(`option '${flags}' argument 'bogus' is invalid`));
      assert.doesNotMatch(run.stderr, new RegExp(`(?<!-)${name}:`), "not as the library names it");
    }
  }
});

test("--stats records every option of the table, in its order, in a form reduce() takes back", async () => {
  const options = reduceOptions("--split-factor", "inf", "--no-dd-star");
  const path = join(scratch(), "stats.json");
  const summary: StatsSummary = { result: "done", inputBytes: 1, pipeline: [], initialCheckMs: 1, wallMs: 1 };
  await writeStats(path, summary, options);
  const recorded = (JSON.parse(readFileSync(path, "utf8")) as { options: Record<string, unknown> }).options;
  assert.deepEqual(
    Object.keys(recorded),
    OPTION_LIST.map(([name]) => name),
  );
  assert.equal(recorded["splitFactor"], "inf");
  assert.equal(recorded["ddStar"], false);
  assert.equal(recorded["jobs"], null);
  assert.deepEqual(resolveOptions(recorded), resolveOptions(options));
});
