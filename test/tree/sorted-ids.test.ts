import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { hasId, mergeIds, nextId, sortedIds } from "../../src/tree/sorted-ids.js";

const ids = fc.array(fc.nat(60), { maxLength: 30 });

test("sorted ids answer membership and next-id questions as a plain set does", () => {
  fc.assert(
    fc.property(ids, ids, fc.nat(62), (a, b, from) => {
      const set = new Set(a);
      const sorted = sortedIds(a);
      assert.deepEqual(
        [...sorted],
        [...set].sort((x, y) => x - y),
      );
      for (let id = 0; id <= 61; id++) assert.equal(hasId(sorted, id), set.has(id));
      const after = a.filter((id) => id >= from);
      assert.equal(nextId(sorted, from), after.length === 0 ? Infinity : Math.min(...after));
      const both = new Set([...a, ...b]);
      assert.deepEqual(
        [...mergeIds(sorted, sortedIds(b))],
        [...both].sort((x, y) => x - y),
      );
    }),
    { numRuns: 500 },
  );
});
