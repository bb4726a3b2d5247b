/**
 * A toy-JSON front end and an oracle whose answers take random times, for the tests of searches run
 * ahead with parallel jobs (levels: test/hdd/stages.test.ts; passes: test/reduce/run-passes.test.ts).
 */
import type { TreeFrontEnd } from "../../src/hdd/phases.js";
import { reduce, type ReductionEvent } from "../../src/index.js";
import type { Pass } from "../../src/passes/pass.js";
import type { GlueCheck } from "../../src/tree/raw.js";
import { Tree } from "../../src/tree/tree.js";
import { parseToyJson } from "./toy-json.js";

const words: GlueCheck = (a, b) => /[\w"]$/.test(a) && /^[\w"]/.test(b);

export const toyJson: TreeFrontEnd = {
  parse: (input) => ({ tree: Tree.build(input, parseToyJson(Buffer.from(input).toString())), glue: words }),
};

export const text = (b: Uint8Array): string => Buffer.from(b).toString();

/**
 * Interesting: valid JSON that still holds 4242. Each answer comes after a random 0–3 ms (seeded);
 * `running` and `most` count the tests under way, from the call to the answer or the cancellation
 * (a cancelled test's slot is free at once).
 */
export function slowOracle(seed: number) {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state / 2 ** 32;
  };
  let running = 0;
  let most = 0;
  const oracle = async (c: Uint8Array, signal: AbortSignal): Promise<boolean> => {
    running++;
    most = Math.max(most, running);
    let counted = true;
    const uncount = (): void => {
      if (counted) running--;
      counted = false;
    };
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.floor(next() * 4));
        signal.addEventListener("abort", () => (uncount(), clearTimeout(timer), resolve()), { once: true });
      });
      return JSON.stringify(JSON.parse(text(c))).includes("4242");
    } catch {
      return false;
    } finally {
      uncount();
    }
  };
  return { oracle, running: () => running, most: () => most };
}

/**
 * `input` reduced with `pipeline()` by one job, then by four, each with a slow oracle of its own
 * seed: both results and event lists, and the oracle of the four jobs' run.
 */
export async function oneAndFour(input: Uint8Array, pipeline: () => Pass[], seed: number) {
  const one: ReductionEvent[] = [];
  const sequential = await reduce(input, slowOracle(seed).oracle, {
    pipeline: pipeline(),
    jobs: 1,
    onEvent: (e) => one.push(e),
  });
  const many: ReductionEvent[] = [];
  const slow = slowOracle(seed + 1);
  const parallel = await reduce(input, slow.oracle, {
    pipeline: pipeline(),
    jobs: 4,
    onEvent: (e) => many.push(e),
  });
  return { one, sequential, many, parallel, slow };
}
