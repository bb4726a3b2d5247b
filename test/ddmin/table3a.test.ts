/**
 * Table 3(a) and Table 2 of Hodován & Kiss, "Practical improvements to the minimizing Delta
 * Debugging algorithm": sequential ddmin, ν = 2, forward order, a cache, no DD*. The test counts,
 * cache hits and iterations are exact targets, for every cache kind that stores passing outcomes.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { reduce } from "../../src/index.js";
import type { CacheKind } from "../../src/cache/index.js";
import { STRATEGIES } from "../../src/ddmin/order.js";
import { MOCKS, mockInput, mockOracle, TABLE3A_SETTING } from "../helpers/mock.js";

const CACHED: readonly CacheKind[] = ["config", "content", "content-hash"];

describe("Table 3(a): tests (+cache hits) [iterations] of sequential ddmin on the mock examples", () => {
  for (const mock of MOCKS) {
    for (const strategy of STRATEGIES) {
      for (const cache of CACHED) {
        const expected = mock.table3a[strategy];
        test(`example ${mock.name}, ${strategy}, ${cache} cache: ${expected.tests} (+${expected.hits}) [${expected.iterations}]`, async () => {
          const result = await reduce(mockInput(mock), mockOracle(mock), {
            ...TABLE3A_SETTING,
            strategy,
            cache,
          });
          assert.equal(result.kind, "done");
          const { tests, cacheHits, iterations } = result.stats;
          assert.deepEqual({ tests, hits: cacheHits, iterations }, expected);
          const lines = Buffer.from(result.output).toString().split("\n").filter(Boolean);
          assert.equal(lines.length, mock.size, "Table 2: size of the 1-minimal result");
          assert.ok(mock.interesting(new Set(lines.map(Number))));
        });
      }
    }
  }
});

describe("without a cache every repeated candidate is tested again", () => {
  test("tests without a cache = tests + hits with one (example A, subsets-first)", async () => {
    const mock = MOCKS[0]!;
    const result = await reduce(mockInput(mock), mockOracle(mock), {
      atom: "line",
      splitFactor: 2,
      strategy: "subsets-first",
      subsetOrder: "forward",
      complementOrder: "forward",
      ddStar: false,
      jobs: 1,
      cache: "none",
      assumeInteresting: true,
    });
    assert.equal(result.stats.tests, 44);
    assert.equal(result.stats.cacheHits, 0);
  });
});
