/**
 * --report through the command line: the page of a mock reduction agrees with --stats; it is kept
 * up to date while the run goes on and written once more after Ctrl-C; a run that ends at the
 * initial check has one too; and it may overwrite none of the files whittle keeps, nor a file that
 * is not an earlier report.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { REPORT_MARK } from "../../src/report/html.js";
import { FIXTURES, MAIN, REPO, runWhittle, scratch } from "../helpers/cli.js";

interface Stats {
  result: string;
  tests: number;
  outputBytes: number;
  passes: Record<string, { tests: number; improvements: number; bytesRemoved: number }>;
}

const improvementsIn = (stats: Stats): number =>
  Object.values(stats.passes).reduce((sum, p) => sum + p.improvements, 0);

/** The marks of the chart with this id. */
function marks(html: string, id: string): number {
  const start = html.indexOf(`<svg id="${id}"`);
  assert.ok(start >= 0, `no chart ${id}`);
  return html.slice(start, html.indexOf("</svg>", start)).match(/<circle class="mark /g)?.length ?? 0;
}

const statusOf = (html: string): string | undefined => /<p class="status (\S+)">/.exec(html)?.[1];

describe("whittle --report", () => {
  test("the page of a mock reduction: a mark per improvement, a row per pass, the result", async () => {
    const dir = scratch();
    const [report, stats, output] = ["r.html", "s.json", "out.txt"].map((f) => join(dir, f)) as [
      string,
      string,
      string,
    ];
    const run = await runWhittle([
      join(FIXTURES, "mock", "input-100.txt"),
      "--atom=line",
      "--timeout=60",
      "-q",
      `--stats=${stats}`,
      `--report=${report}`,
      `-o${output}`,
      "--test",
      join(FIXTURES, "mock", "oracle-a.sh"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const s = JSON.parse(readFileSync(stats, "utf8")) as Stats;
    const html = readFileSync(report, "utf8");
    assert.ok(improvementsIn(s) > 0);
    assert.equal(marks(html, "by-time"), improvementsIn(s));
    assert.equal(marks(html, "by-tests"), improvementsIn(s));
    assert.equal(statusOf(html), "done");
    assert.ok(!html.includes('http-equiv="refresh"'), "the final page does not reload itself");
    const row =
      /<tr data-pass="0"><td><i[^>]*><\/i>ddmin:line<\/td><td>(\d+)<\/td><td>(\d+)<\/td><td>(\d+)<\/td>/.exec(
        html,
      );
    const line = s.passes["ddmin:line"]!;
    assert.deepEqual(row?.slice(1).map(Number), [line.tests, line.improvements, line.bytesRemoved]);
    // Each line of the result sits beside the same line of the original.
    const result = readFileSync(output, "utf8").split("\n").filter(Boolean);
    for (const l of result)
      assert.match(html, new RegExp(`<tr class="same"><td class="n">\\d+</td><td>${l}</td>`));
    assert.equal(html.match(/<tr class="same">/g)?.length, result.length);
    assert.deepEqual(
      readdirSync(dir).sort(),
      ["out.txt", "r.html", "s.json"],
      "no temporary file is left beside the report",
    );
  });

  test("is rewritten while the run goes on, and once more after Ctrl-C", async () => {
    const dir = scratch();
    const report = join(dir, "r.html");
    const stats = join(dir, "s.json");
    const slow = join(dir, "slow.sh");
    writeFileSync(
      slow,
      `#!/usr/bin/env bash\nsleep 0.15\nexec ${join(FIXTURES, "mock", "oracle-a.sh")} "$1"\n`,
    );
    chmodSync(slow, 0o755);
    const child = spawn(
      process.execPath,
      [
        MAIN,
        join(FIXTURES, "mock", "input-100.txt"),
        "--atom=line",
        "--timeout=60",
        "-j1",
        "-q",
        `--stats=${stats}`,
        `--report=${report}`,
        `-o${join(dir, "out.txt")}`,
        "--test",
        slow,
      ],
      { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    // A page written while running, after the first improvements: the periodic rewrite.
    let live: string | undefined;
    for (let waited = 0; waited < 60_000 && live === undefined; waited += 100) {
      await sleep(100);
      const html = existsSync(report) ? readFileSync(report, "utf8") : "";
      if (statusOf(html) === "running" && marks(html, "by-time") >= 2) live = html;
    }
    assert.ok(live !== undefined, `no running page with improvements appeared; stderr: ${stderr}`);
    assert.ok(live.includes('<meta http-equiv="refresh" content="3">'));
    child.kill("SIGINT");
    assert.equal(await exited, 130, stderr);
    const html = readFileSync(report, "utf8");
    const s = JSON.parse(readFileSync(stats, "utf8")) as Stats;
    assert.equal(s.result, "interrupted");
    assert.equal(statusOf(html), "interrupted");
    assert.equal(marks(html, "by-time"), improvementsIn(s));
    assert.ok(marks(html, "by-time") >= marks(live, "by-time"));
    assert.ok(!html.includes('http-equiv="refresh"'));
    // No temporary file of the report is left; the journal stays for --resume.
    assert.deepEqual(readdirSync(dir).sort(), ["out.txt", "out.txt.journal", "r.html", "s.json", "slow.sh"]);
  });

  test("a run stopped by --max-tests ends with its page", async () => {
    const dir = scratch();
    const report = join(dir, "r.html");
    const stats = join(dir, "s.json");
    const run = await runWhittle([
      join(FIXTURES, "mock", "input-100.txt"),
      "--atom=line",
      "--timeout=60",
      "-j1",
      "--max-tests=12",
      "-q",
      `--stats=${stats}`,
      `--report=${report}`,
      `-o${join(dir, "out.txt")}`,
      "--test",
      join(FIXTURES, "mock", "oracle-a.sh"),
    ]);
    assert.equal(run.code, 4, run.stderr);
    const html = readFileSync(report, "utf8");
    assert.equal(statusOf(html), "limit");
    assert.equal(marks(html, "by-time"), improvementsIn(JSON.parse(readFileSync(stats, "utf8")) as Stats));
  });

  test("a run whose original is not interesting has a page too", async () => {
    const dir = scratch();
    const report = join(dir, "r.html");
    const run = await runWhittle([
      join(FIXTURES, "mock", "input-8.txt"),
      "-q",
      `--report=${report}`,
      `-o${join(dir, "out.txt")}`,
      "--",
      "false",
    ]);
    assert.equal(run.code, 3, run.stderr);
    const html = readFileSync(report, "utf8");
    assert.equal(statusOf(html), "not-interesting");
    assert.equal(marks(html, "by-time"), 0);
  });

  describe("refuses a report that would overwrite a file whittle keeps (exit 2)", () => {
    const cases: [string, (dir: string, input: string) => string[], RegExp][] = [
      ["the input", (_, input) => [`--report=${input}`], /--report .* would overwrite the input/],
      [
        "the output",
        (dir) => [`--report=${join(dir, "o.txt")}`, `-o${join(dir, "o.txt")}`],
        /would overwrite the output/,
      ],
      [
        "the statistics file",
        (dir) => [`--report=${join(dir, "s.json")}`, `--stats=${join(dir, "s.json")}`],
        /would overwrite the statistics file/,
      ],
      [
        "the backup of an in-place run",
        (_, input) => ["--in-place", `--report=${input}.orig`],
        /would overwrite the backup of the input/,
      ],
      [
        "a file that is not a report",
        (dir) => {
          writeFileSync(join(dir, "notes.html"), "<p>my notes</p>\n");
          return [`--report=${join(dir, "notes.html")}`];
        },
        /would overwrite a file that is not a report of whittle/,
      ],
    ];
    for (const [what, args, message] of cases) {
      test(what, async () => {
        const dir = scratch();
        const input = join(dir, "in.txt");
        writeFileSync(input, "a\nb\n");
        const extra = args(dir, input);
        const files = new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
        const run = await runWhittle([input, ...extra, "-q", "--", "true"]);
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        for (const [f, bytes] of files) assert.deepEqual(readFileSync(join(dir, f)), bytes, `${f} unchanged`);
      });
    }

    test("but an earlier report is overwritten", async () => {
      const dir = scratch();
      const input = join(dir, "in.txt");
      writeFileSync(input, "a\nb\n");
      writeFileSync(join(dir, "r.html"), `<!DOCTYPE html>\n<html><head>${REPORT_MARK}</head></html>\n`);
      const run = await runWhittle([input, `--report=${join(dir, "r.html")}`, "-q", "--", "true"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(statusOf(readFileSync(join(dir, "r.html"), "utf8")), "done");
    });
  });
});
