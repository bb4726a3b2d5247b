/**
 * The report of a real run, opened offline in a real browser (Debian's headless chromium): its
 * script ran (it marks <html> with data-rendered), the first chart holds one mark per improvement
 * as the browser sees it, and the page logged nothing to the console. A page with a deliberate
 * error shows that console messages would be seen. Skipped, visibly, without /usr/bin/chromium.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, test } from "node:test";
import { FIXTURES, runWhittle, scratch } from "../helpers/cli.js";

const CHROMIUM = "/usr/bin/chromium";

/** Loads `page` in headless chromium; its DOM after the scripts ran, and chromium's log. */
function dumpDom(page: string, profile: string): Promise<{ dom: string; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
        `--user-data-dir=${profile}`,
        "--dump-dom",
        pathToFileURL(page).href,
      ],
      // Its own process group, so that every process of the browser can be ended together.
      { stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    let dom = "";
    let log = "";
    child.stdout.on("data", (d: Buffer) => (dom += d.toString()));
    child.stderr.on("data", (d: Buffer) => (log += d.toString()));
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`chromium took more than 60 s; its log:\n${log}`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup();
      if (code !== 0) reject(new Error(`chromium exited with ${code}:\n${log}`));
      else resolve({ dom, log });
    });
  });
}

const consoleLines = (log: string): string[] => log.split("\n").filter((l) => l.includes(":CONSOLE"));

describe("the report in a real browser", () => {
  if (!existsSync(CHROMIUM)) {
    test(`skipped: ${CHROMIUM} is not installed (apt-get install chromium)`, (t) => {
      t.skip(`${CHROMIUM} is missing: the report was not opened in a browser`);
    });
    return;
  }

  test("a page with an error logs it (the check below can fail)", async () => {
    const dir = scratch();
    const page = join(dir, "bad.html");
    writeFileSync(page, "<!DOCTYPE html><html><body><script>missingFunction()</script></body></html>\n");
    const { log } = await dumpDom(page, join(dir, "profile"));
    assert.ok(
      consoleLines(log).some((l) => l.includes("missingFunction is not defined")),
      `no console line in:\n${log}`,
    );
  });

  test("renders the report of a mock reduction: its script ran, a mark per improvement, no console output", async () => {
    const dir = scratch();
    const report = join(dir, "report.html");
    const stats = join(dir, "stats.json");
    const run = await runWhittle([
      join(FIXTURES, "mock", "input-100.txt"),
      "--atom=line",
      "--timeout=60",
      "-q",
      `--stats=${stats}`,
      `--report=${report}`,
      `-o${join(dir, "out.txt")}`,
      "--test",
      join(FIXTURES, "mock", "oracle-b.sh"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const s = JSON.parse(readFileSync(stats, "utf8")) as { passes: Record<string, { improvements: number }> };
    const improvements = Object.values(s.passes).reduce((sum, p) => sum + p.improvements, 0);
    assert.ok(improvements > 0);

    const { dom, log } = await dumpDom(report, join(dir, "profile"));
    const root = /<html[^>]*>/.exec(dom)?.[0] ?? "";
    assert.match(root, /data-rendered="yes"/, `the page's script did not finish; log:\n${log}`);
    assert.equal(/data-marks="(\d+)"/.exec(root)?.[1], String(improvements));
    assert.deepEqual(consoleLines(log), []);
    // Both charts reached the DOM as SVG, with a size line each.
    assert.equal(dom.match(/<svg id="by-(time|tests)" class="chart"/g)?.length, 2);
    assert.equal(dom.match(/<path class="size-line"/g)?.length, 2);
  });
});
