import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";

import { idealSpeedup, idealTestTimes, roundsOf } from "../../bench/lib/rounds.js";
import { runWhittle, scratch } from "../helpers/cli.js";

type Label = { kind: string; round: number; granularity: number; level?: number };

/** Events as whittle writes them with -j 1: a start and an end per test. */
function tests(pass: string, labels: Label[], outcomes: string[]): object[] {
  return labels.flatMap((label, i) => [
    { type: "test-start", pass, id: i, label },
    { type: "test-end", pass, id: i, label, outcome: outcomes[i] },
  ]);
}

const text = (events: object[]): string => events.map((e) => JSON.stringify(e)).join("\n") + "\n";
const dd = (kind: string, round: number, granularity: number, level?: number): Label => ({
  kind,
  round,
  granularity,
  ...(level === undefined ? {} : { level }),
});

describe("the rounds of a -j 1 run, from its events", () => {
  test("a ddmin round's subsets and complements are one round, ended by its interesting test", () => {
    const r = roundsOf(
      text([
        { type: "check", what: "original" },
        { type: "check", what: "empty" },
        { type: "round", round: 1, granularity: 4 },
        ...tests(
          "ddmin:line",
          [dd("subset", 1, 4), dd("subset", 1, 4), { ...dd("complement", 1, 4) }, dd("complement", 1, 4)],
          ["not-interesting", "not-interesting", "not-interesting", "interesting"],
        ),
        { type: "improved", pass: "ddmin:line", size: 9 },
        { type: "reduced", round: 1 },
        { type: "round", round: 2, granularity: 3 },
        { type: "cache-hit", pass: "ddmin:line" },
        ...tests(
          "ddmin:line",
          [dd("complement", 2, 3), dd("complement", 2, 3), dd("complement", 2, 3)],
          ["not-interesting", "interesting", "not-interesting"],
        ),
      ]),
    );
    // The third test of round 2 follows an interesting one: a scan of its own.
    assert.deepEqual(r.sizes, [4, 2, 1]);
    assert.equal(r.tests, 7);
    assert.equal(r.sequential, 3);
    assert.equal(idealTestTimes(r, 1), 10);
    assert.equal(idealTestTimes(r, 2), 2 + 1 + 1 + 3);
    assert.equal(idealTestTimes(r, 16), 1 + 1 + 1 + 3);
    assert.equal(idealSpeedup(r, 16), 10 / 6);
  });

  test("other events, another level or kind part rounds; one-at-a-time candidates are rounds of one", () => {
    const r = roundsOf(
      text([
        ...tests(
          "hdd:coarse",
          [dd("empty", 0, 1, 2), dd("empty", 0, 1, 2)],
          ["not-interesting", "not-interesting"],
        ),
        ...tests(
          "hdd:coarse",
          [dd("complement", 1, 2, 3), dd("complement", 1, 2, 3), dd("complement", 1, 2, 4)],
          ["not-interesting", "not-interesting", "not-interesting"],
        ),
        { type: "level", pass: "hdd:hoist*", level: 0 },
        ...tests(
          "hdd:hoist*",
          [dd("hoist", 1, 5, 0), dd("hoist", 1, 5, 0)],
          ["not-interesting", "not-interesting"],
        ),
        ...tests(
          "hdd:chain",
          [dd("hoist", 1, 4, 1), dd("hoist", 1, 4, 1)],
          ["not-interesting", "not-interesting"],
        ),
        ...tests(
          "literal",
          [dd("rewrite", 0, 3), dd("rewrite", 0, 3)],
          ["not-interesting", "not-interesting"],
        ),
        ...tests(
          "ddmin:glyph",
          [dd("complement", 0, 2), dd("complement", 0, 2)],
          ["not-interesting", "interesting"],
        ),
        { type: "round", round: 1, granularity: 2 },
        ...tests(
          "ddmin:glyph",
          [dd("complement", 1, 2), dd("complement", 1, 2)],
          ["not-interesting", "not-interesting"],
        ),
      ]),
      false,
    );
    assert.deepEqual(r.sizes, [1, 1, 2, 1, 2, 1, 1, 1, 1, 1, 1, 2]);
    assert.equal(r.sequential, 0);
    assert.equal(r.tests, 15);
  });

  test("a real -j 1 run: every test is in a round, and the bound never falls below one", async () => {
    const dir = scratch();
    const input = join(dir, "lines.txt");
    const needed = [2, 9, 17, 23];
    writeFileSync(
      input,
      Array.from({ length: 28 }, (_, i) => (needed.includes(i) ? `k${i}` : `line ${i}`)).join("\n") + "\n",
    );
    const check = join(dir, "t.sh");
    writeFileSync(check, `#!/bin/sh\nfor k in ${needed.join(" ")}; do grep -qx "k$k" "$1" || exit 1; done\n`);
    chmodSync(check, 0o755);
    const events = join(dir, "events.jsonl");
    const run = await runWhittle([
      input,
      "--language=none",
      "--atom=line",
      "-j1",
      `--events=${events}`,
      `-o${join(dir, "out.txt")}`,
      "--",
      check,
      "{}",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const r = roundsOf(readFileSync(events, "utf8"));
    const end = JSON.parse(readFileSync(events, "utf8").trim().split("\n").at(-1)!) as { tests: number };
    assert.equal(r.tests, end.tests);
    assert.equal(
      r.sizes.reduce((a, b) => a + b, 0),
      r.tests,
    );
    assert.equal(r.sequential, 3);
    // ddmin over lines with 4 needed lines in 28: some round tests several candidates.
    assert.ok(Math.max(...r.sizes) > 1, JSON.stringify(r.sizes));
    let last = 1;
    for (const w of [1, 2, 4, 8, 16]) {
      const bound = idealSpeedup(r, w);
      assert.ok(bound >= last, `the bound grows with the workers (${w}: ${bound})`);
      last = bound;
    }
    assert.equal(idealSpeedup(r, 1), 1);
    assert.equal(idealSpeedup(r, 10_000), (r.tests + 3) / (r.sizes.length + 3));
  });
});
