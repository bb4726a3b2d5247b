/**
 * The README's options table is the one the command's options make, and every option is in one of
 * --help's groups.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildProgram } from "../../src/cli/args.js";
import { OPTION_GROUPS, groupOf } from "../../src/cli/option-groups.js";
import { TABLE_END, TABLE_START, optionsTable, tableRows } from "../../src/cli/options-table.js";
import { DEFAULT_TREE_SCHEDULE, describeSchedule } from "../../src/passes/schedule.js";
import { REPO, runWhittle } from "../helpers/cli.js";

test("the README's options table is the generated one (npm run docs writes it)", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const block = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END));
  assert.ok(block.length > 0, "the README has the table's markers");
  assert.deepEqual(tableRows(block), tableRows(optionsTable(buildProgram("0"))), "run npm run docs");
});

test("every option of the command is in one of the help groups", () => {
  const program = buildProgram("0");
  const orphans = program.options.filter((o) => groupOf(o) === undefined).map((o) => o.flags);
  assert.deepEqual(orphans, [], "add the flags to OPTION_GROUPS in src/cli/option-groups.ts");
});

test("--help shows the groups in order, the commands and the phases", async () => {
  const run = await runWhittle(["--help"]);
  const code = run.code;
  const stdout = run.stdout.toString();
  assert.equal(code, 0);
  const positions = OPTION_GROUPS.map((g) => stdout.indexOf(`${g.heading} options:`));
  assert.ok(
    positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!)),
    stdout,
  );
  assert.match(stdout, /whittle tree FILE/);
  assert.match(stdout, /glyph/);
  assert.match(stdout, /blank/);
  // The default pipeline, from its schedule (src/passes/schedule.ts), wrapped before an arrow.
  const section = stdout.slice(stdout.indexOf("Default pipeline"));
  const lines = section.slice(0, section.indexOf("\n\n")).split("\n");
  assert.equal(
    lines
      .slice(1)
      .map((line) => line.trim().replace(/^with a grammar: /, ""))
      .join(" "),
    `${describeSchedule(DEFAULT_TREE_SCHEDULE)} without one: line → char (as --atom says; ddmin unless --algorithm)`,
  );
  assert.ok(
    lines.every((line) => line.length <= 100),
    lines.join("\n"),
  );
});
