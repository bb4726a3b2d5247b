/**
 * Configurations as runs of consecutive atom indices, and partitions made on demand, against the plain
 * arrays they replace.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { Configuration, concatParts } from "../../src/ddmin/configuration.js";
import { Partition, split } from "../../src/ddmin/partition.js";
import { ddmin } from "../../src/ddmin/ddmin.js";

/** Ascending unique indices below 64. */
const indices = fc
  .uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 40 })
  .map((a) => a.sort((x, y) => x - y));

test("a full configuration is one run however many atoms it has", () => {
  const full = Configuration.full(100_000_000);
  assert.equal(full.length, 100_000_000);
  assert.equal(full.runCount, 1);
  assert.equal(Configuration.full(0).length, 0);
  assert.equal(Configuration.full(0).runCount, 0);
});

test("runs are canonical: adjacent indices merge, so equal sets have equal encodings", () => {
  const c = Configuration.of([1, 2, 3, 7, 8, 10]);
  assert.deepEqual(
    Array.from({ length: c.runCount }, (_, k) => [c.runStart(k), c.runEnd(k)]),
    [
      [1, 4],
      [7, 9],
      [10, 11],
    ],
  );
  const glued = concatParts([Configuration.of([1, 2]), Configuration.of([3, 7, 8]), Configuration.of([10])]);
  assert.ok(glued.equals(c));
  assert.equal(glued.runCount, 3);
});

test("indices must be ascending whole numbers", () => {
  assert.throws(() => Configuration.of([2, 1]), RangeError);
  assert.throws(() => Configuration.of([1, 1]), RangeError);
  assert.throws(() => Configuration.of([0.5]), RangeError);
  assert.throws(() => Configuration.of([-1]), RangeError);
});

test("slice, without and concatenation agree with plain arrays", () => {
  fc.assert(
    fc.property(indices, fc.nat(), fc.nat(), (a, x, y) => {
      const c = Configuration.of(a);
      assert.deepEqual(c.toArray(), a);
      assert.equal(c.length, a.length);
      const from = a.length === 0 ? 0 : x % (a.length + 1);
      const to = from + (a.length === 0 ? 0 : y % (a.length - from + 1));
      assert.deepEqual(c.slice(from, to).toArray(), a.slice(from, to));
      assert.deepEqual(c.without(from, to).toArray(), [...a.slice(0, from), ...a.slice(to)]);
      assert.ok(c.without(from, to).equals(Configuration.of([...a.slice(0, from), ...a.slice(to)])));
    }),
    { numRuns: 500 },
  );
});

test("nextAbsent finds the first index at or after a point that the configuration lacks", () => {
  fc.assert(
    fc.property(indices, fc.nat(70), (a, from) => {
      let expected = from;
      while (a.includes(expected)) expected++;
      assert.equal(Configuration.of(a).nextAbsent(from), expected);
    }),
    { numRuns: 1000 },
  );
  assert.equal(Configuration.EMPTY.nextAbsent(3), 3);
  assert.equal(Configuration.full(5).nextAbsent(2), 5);
});

test("isSubsetOf agrees with plain arrays, also for a subset of the other's subsets", () => {
  fc.assert(
    fc.property(indices, indices, fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (a, b, drop) => {
      const sub = (x: number[], y: number[]): boolean => x.every((i) => y.includes(i));
      assert.equal(Configuration.of(a).isSubsetOf(Configuration.of(b)), sub(a, b));
      // Most random pairs are no subsets: a part of `a` is one.
      const part = a.filter((i) => !drop[i]);
      assert.ok(Configuration.of(part).isSubsetOf(Configuration.of(a)));
      assert.equal(Configuration.of(a).isSubsetOf(Configuration.of(part)), part.length === a.length);
    }),
    { numRuns: 500 },
  );
  assert.ok(Configuration.EMPTY.isSubsetOf(Configuration.EMPTY));
  assert.ok(Configuration.EMPTY.isSubsetOf(Configuration.full(3)));
  assert.ok(!Configuration.full(3).isSubsetOf(Configuration.EMPTY));
  assert.ok(!Configuration.of([0, 1, 2, 5]).isSubsetOf(Configuration.of([0, 1, 2, 3, 4])));
});

test("a partition's parts and complements are the plain array's, in Zeller's sizes", () => {
  fc.assert(
    fc.property(
      indices.filter((a) => a.length >= 1),
      fc.nat(),
      fc.nat(),
      (a, k, drop) => {
        const c = Configuration.of(a);
        const n = 1 + (k % a.length);
        const partition = Partition.split(c, n);
        assert.equal(partition.count, n);
        // Reference: part i takes ⌊remaining / (n − i)⌋ of the atoms still left.
        const expected: number[][] = [];
        for (let i = 0, start = 0; i < n; i++) {
          const stop = start + Math.floor((a.length - start) / (n - i));
          expected.push(a.slice(start, stop));
          start = stop;
        }
        for (let i = 0; i < n; i++) {
          assert.deepEqual(partition.part(i).toArray(), expected[i]);
          assert.deepEqual(partition.complement(i).toArray(), expected.filter((_, j) => j !== i).flat());
        }
        assert.deepEqual(
          split(c, n).map((p) => p.toArray()),
          expected,
        );
        // Dropping a part keeps the others as the parts of the complement.
        const i = drop % n;
        const rest = partition.without(i);
        const restExpected = expected.filter((_, j) => j !== i);
        assert.equal(rest.count, n - 1);
        assert.deepEqual(rest.config.toArray(), restExpected.flat());
        for (let j = 0; j < n - 1; j++) assert.deepEqual(rest.part(j).toArray(), restExpected[j]);
      },
    ),
    { numRuns: 500 },
  );
});

test("ddmin accepts a plain array of indices and hands the hooks configurations", async () => {
  // Mock example A over indices 0…7 (elements 1…8): 5 and 8 must stay, and 2 or not 7.
  const seen: number[][] = [];
  const result = await ddmin(
    [0, 1, 2, 3, 4, 5, 6, 7],
    {
      test: (config) => {
        assert.ok(config instanceof Configuration);
        const c = new Set(config.toArray().map((i) => i + 1));
        seen.push(config.toArray());
        return Promise.resolve(c.has(5) && c.has(8) && (c.has(2) || !c.has(7)));
      },
    },
    {
      splitFactor: 2,
      strategy: "subsets-first",
      subsetOrder: "forward",
      complementOrder: "forward",
      ddStar: false,
      jobs: 1,
      combine: false,
      firstWins: false,
    },
  );
  assert.equal(result.kind, "done");
  assert.deepEqual(result.config.toArray(), [4, 7]);
  // The first round tests the two halves, in order.
  assert.deepEqual(seen.slice(0, 2), [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
  ]);
});
