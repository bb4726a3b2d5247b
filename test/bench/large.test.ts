import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readStable, SizePoller, sizeAt, type SizeSample } from "../../bench/lib/size-poll.js";
import {
  goalLines,
  milestones,
  smallerBy,
  type LargeData,
  type LargeRun,
} from "../../bench/sections/large.js";

const MIN = 60_000;

describe("large section helpers", () => {
  const series: SizeSample[] = [
    { ms: 0, nonWs: 1000 },
    { ms: 30_000, nonWs: 600 },
    { ms: 90_000, nonWs: 200 },
  ];

  test("the size at a minute is the last sample at or before it, or the final size once ended", () => {
    const end = { ms: 10 * MIN, nonWs: 150 };
    assert.equal(sizeAt(series, 0, end), 1000);
    assert.equal(sizeAt(series, 29_999, end), 1000);
    assert.equal(sizeAt(series, 1 * MIN, end), 600);
    assert.equal(sizeAt(series, 2 * MIN, end), 200);
    // The run ended (finished or capped) by then: its final size, not the last poll.
    assert.equal(sizeAt(series, 5 * MIN, { ms: 4 * MIN, nonWs: 120 }), 120);
    assert.equal(sizeAt([], 1 * MIN, end), null);
  });

  test("milestones stop at the cap; the factor needs both sizes", () => {
    assert.deepEqual(milestones(10 * MIN), [1, 2, 5, 10]);
    assert.deepEqual(milestones(2 * MIN), [1, 2]);
    assert.equal(smallerBy(100, 300, 3), true);
    assert.equal(smallerBy(101, 300, 3), false);
    assert.equal(smallerBy(null, 300, 3), null);
  });

  test("the goals: JavaScript at 10 minutes, and 3× C-Vise at every minute", () => {
    const run = (c: string, tool: LargeRun["tool"], at: number[]): LargeRun => ({
      case: c,
      tool,
      argv: [],
      capMs: 10 * MIN,
      loadBefore: 1,
      at,
      finalNonWs: at[at.length - 1]!,
      finalBytes: 0,
      wallMs: 10 * MIN,
      tests: 1,
      timedOut: null,
      timeoutTotalMs: null,
      status: "limit",
      exitCode: 4,
      stoppedAtCap: true,
      interesting: true,
      passes: null,
      series: [],
      stderr: "",
    });
    const data: LargeData = {
      capMs: 10 * MIN,
      minutes: [1, 2, 5, 10],
      cases: [
        {
          case: "js-a",
          inputName: "input.js",
          inputBytes: 1,
          inputNonWs: 1,
          language: "javascript",
          origin: "",
        },
      ],
      runs: [
        run("js-a", "whittle", [9000, 6000, 4000, 4000]),
        run("js-a", "cvise", [30000, 20000, 11000, 12000]),
      ],
      cvise: "cvise 2.7.0",
      notes: [],
    };
    const lines = goalLines(data);
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^- ✓ js-a: ≤ 5,000 .* whittle 4,000$/);
    // 11,000 / 4,000 = 2.75 at 5 minutes: not 3×.
    assert.match(lines[1]!, /^- ✗ js-a: .*1 min 3\.3× ✓, 2 min 3\.3× ✓, 5 min 2\.8× ✗, 10 min 3\.0× ✓$/);
    data.runs[0]!.interesting = false;
    assert.match(goalLines(data)[0]!, /^- ✗ js-a/);
  });

  test("the poller keeps the input's size until the file exists, then only changes", () => {
    const dir = mkdtempSync(join(tmpdir(), "whittle-large-test-"));
    try {
      const file = join(dir, "best.js");
      const poller = new SizePoller(file, 50, 60_000);
      poller.poll(); // not there yet
      writeFileSync(file, "a b\nc");
      poller.poll();
      poller.poll(); // unchanged: no new sample
      writeFileSync(file, "ab");
      poller.stop();
      assert.deepEqual(
        poller.series.map((s) => s.nonWs),
        [50, 3, 2],
      );
      assert.equal(readStable(join(dir, "missing")), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
