/**
 * The mock examples through the command line, with shell oracles, give exactly the counts of the
 * engine tests (Table 3(a) of the practical-improvements paper), read from --stats.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { MOCKS } from "../helpers/mock.js";
import { FIXTURES, runWhittle, scratch } from "../helpers/cli.js";
import { STRATEGIES } from "../../src/ddmin/order.js";

describe("whittle on the mock examples reproduces Table 3(a) with real test processes", () => {
  for (const mock of MOCKS) {
    const letter = mock.name.toLowerCase();
    const input = join(FIXTURES, "mock", mock.elements.length === 8 ? "input-8.txt" : "input-100.txt");
    for (const strategy of STRATEGIES) {
      const expected = mock.table3a[strategy];
      test(`example ${mock.name}, ${strategy}: ${expected.tests} (+${expected.hits}) [${expected.iterations}]`, async () => {
        const dir = scratch();
        const stats = join(dir, "stats.json");
        const output = join(dir, "out.txt");
        const run = await runWhittle([
          input,
          "--atom=line",
          "--split-factor=2",
          `--strategy=${strategy}`,
          "--subset-order=forward",
          "--complement-order=forward",
          "--no-dd-star",
          "--jobs=1",
          "--cache=content",
          // A fixed, generous limit: the counts must not depend on how loaded the machine is (the
          // adaptive limit starts at 0.25 s, which a loaded CI machine's shell script can exceed).
          "--timeout=60",
          "--quiet",
          `--stats=${stats}`,
          `--output=${output}`,
          "--test",
          join(FIXTURES, "mock", `oracle-${letter}.sh`),
        ]);
        assert.equal(run.code, 0, run.stderr);
        const s = JSON.parse(readFileSync(stats, "utf8")) as Record<string, unknown>;
        assert.deepEqual({ tests: s.tests, hits: s.cacheHits, iterations: s.iterations }, expected);
        assert.equal(readFileSync(output, "utf8").split("\n").filter(Boolean).length, mock.size);
        assert.equal(s.timeouts, 0);
        assert.equal(s.result, "done");
      });
    }
  }
});

/** The same counts with the oracles shipped in ../shared/bench/cases, when that folder is present. */
const SHARED = join(FIXTURES, "../../../shared/bench/cases");
describe("whittle with the shared benchmark oracles of the mock examples", () => {
  if (!existsSync(SHARED)) {
    test(`skipped: ${SHARED} is not present`, (t) => {
      t.skip(`../shared is absent; the shared mock oracles were not run`);
    });
    return;
  }
  for (const mock of MOCKS) {
    const expected = mock.table3a["complements-first"];
    const dir = join(SHARED, `mock-${mock.name.toLowerCase()}`);
    test(`shared mock-${mock.name.toLowerCase()}, complements-first: ${expected.tests} (+${expected.hits}) [${expected.iterations}]`, async () => {
      const out = scratch();
      const stats = join(out, "stats.json");
      const run = await runWhittle([
        join(dir, "input.txt"),
        "--atom=line",
        "--strategy=complements-first",
        "--complement-order=forward",
        "--no-dd-star",
        "-j1",
        "--cache=content",
        "--timeout=60",
        "--quiet",
        `--stats=${stats}`,
        `-o${join(out, "out.txt")}`,
        "--test",
        join(dir, "oracle.sh"),
      ]);
      assert.equal(run.code, 0, run.stderr);
      const s = JSON.parse(readFileSync(stats, "utf8")) as Record<string, unknown>;
      assert.deepEqual({ tests: s.tests, hits: s.cacheHits, iterations: s.iterations }, expected);
    });
  }
});
