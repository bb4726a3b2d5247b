/**
 * A list reduction run against a non-monotone test whose answers arrive out of order, for the
 * property that parallel jobs change nothing: what it committed, the events, the result, and how
 * many tests ran at once at most.
 */
import { Configuration } from "../../src/ddmin/configuration.js";
import type { DdminEvent, DdminHooks, DdminResult } from "../../src/ddmin/ddmin.js";

export interface OutOfOrderRun {
  readonly commits: number[][];
  readonly events: DdminEvent[];
  readonly result: number[];
  readonly rounds: number;
  readonly most: number;
}

/**
 * Non-monotone, so that a commit out of order would show in the result: besides the full set, a
 * candidate is interesting when its salted hash passes `keeps` (default: one in three).
 */
export async function outOfOrderRun(
  n: number,
  salt: number,
  reduce: (initial: Configuration, hooks: DdminHooks) => Promise<DdminResult>,
  keeps: (hash: number) => boolean = (h) => h % 3 === 0,
): Promise<OutOfOrderRun> {
  const interesting = (units: readonly number[]): boolean =>
    units.length === n || keeps(units.reduce((h, u) => (h * 31 + u + salt) % 7919, salt));
  const commits: number[][] = [];
  const events: DdminEvent[] = [];
  let running = 0;
  let most = 0;
  const result = await reduce(Configuration.full(n), {
    test: async (c) => {
      most = Math.max(most, ++running);
      // Answers arrive out of order: speculative tests may finish before the one they follow.
      await new Promise((resolve) => setTimeout(resolve, (c.length * 7 + salt) % 3));
      running--;
      return interesting(c.toArray());
    },
    commit: (c) => commits.push(c.toArray()),
    onEvent: (e) => events.push(e),
  });
  return { commits, events, result: result.config.toArray(), rounds: result.rounds, most };
}
