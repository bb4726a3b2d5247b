/**
 * The benchmark's in-process mirrors of the shared oracles must answer like oracle.sh. Runs only when
 * the shared cases are present (next to the repository).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { discoverSharedCases } from "../../bench/lib/cases.js";
import { MIRRORS, shellOracle } from "../../bench/lib/oracles.js";
import { findRepoRoot, sharedRoot } from "../../bench/lib/paths.js";

const { cases } = discoverSharedCases(join(sharedRoot(findRepoRoot()), "bench", "cases"));

describe(
  "in-process mirrors of the shared oracles",
  { skip: cases.length === 0 && "no shared cases" },
  () => {
    for (const c of cases) {
      const mirror = MIRRORS[c.name];
      if (!mirror) continue;
      test(`${c.name}: ${mirror.kind} mirror agrees with oracle.sh on the input, an empty file and halves`, async () => {
        const shell = shellOracle(c);
        const half = Math.floor(c.input.length / 2);
        const samples = [c.input, new Uint8Array(0), c.input.subarray(0, half), c.input.subarray(half)];
        for (const sample of samples) {
          const real = (await shell(sample, new AbortController().signal)) === "interesting";
          const mine = mirror.test(sample);
          if (mirror.kind === "exact") assert.equal(mine, real, Buffer.from(sample).toString().slice(0, 80));
          else if (!mine) assert.equal(real, false, "a precheck may only say no where oracle.sh says no");
        }
      });
    }
  },
);
