/**
 * Adaptive deletion, for lists where most units are needed (the polish after the tree phases): a
 * scan that tries each unit alone, left to right, and, where one can go, how many units from there
 * can go at once, by growing the run 1, 2, 3, 4, then doubling, then halving back (the integer
 * search of Hypothesis's shrinker, which Shrink Ray uses too). Not from the papers; Picire has no
 * counterpart.
 *
 * What it promises: the result is 1-minimal relative to the test (with `ddStar`, the last scan
 * removes nothing, so every unit was tried alone against the final list), like ddmin's. What it
 * costs: one test per unit when nothing can go (ddmin's complement and subset rounds spend about
 * three per unit then), plus O(log r) tests per run of r removable units. Where most units can go,
 * ddmin's halving is cheaper: this is for the passes whose units are mostly needed.
 *
 * Deterministic with parallel jobs: the single-unit tries from the scan's position are one round of
 * `findInteresting` (the lowest interesting position wins, as the sequential scan would have it);
 * the growth of a run is sequential (each step depends on the last answer).
 */
import { Configuration } from "./configuration.js";
import type { DdminEvent, DdminHooks, DdminOptions, DdminResult } from "./ddmin.js";
import { findInteresting } from "./round.js";

export async function adaptive(
  initial: Configuration | ArrayLike<number>,
  hooks: DdminHooks,
  options: Pick<DdminOptions, "ddStar" | "jobs" | "firstWins">,
): Promise<DdminResult> {
  let units = (initial instanceof Configuration ? initial : Configuration.of(initial)).toArray();
  let rounds = 0;
  const signal = hooks.signal;
  const emit = (event: DdminEvent): void => hooks.onEvent?.(event);
  const never = new AbortController().signal;
  const without = (from: number, count: number): Configuration =>
    Configuration.of([...units.slice(0, from), ...units.slice(from + count)]);
  /** Tests `units` without `count` units from `from`; commits the candidate when it is interesting. */
  const tryRemove = async (from: number, count: number): Promise<boolean> => {
    const round = ++rounds;
    emit({ type: "round", round, granularity: count, size: units.length });
    const candidate = without(from, count);
    const label = { kind: "complement", index: from, round, granularity: count } as const;
    if (!(await hooks.test(candidate, signal ?? never, label))) return false;
    units = candidate.toArray();
    hooks.commit?.(candidate);
    emit({ type: "reduced", round, kind: "complement", index: from, granularity: count, size: units.length });
    return true;
  };
  try {
    for (let iteration = 0; ; iteration++) {
      emit({ type: "iteration", iteration, size: units.length });
      let changed = false;
      let at = 0;
      while (at < units.length) {
        signal?.throwIfAborted();
        // One round: each unit from `at` on, alone; the first interesting removal in order.
        const round = ++rounds;
        emit({ type: "round", round, granularity: 1, size: units.length });
        const candidates = new Map<number, Configuration>();
        const candidateAt = (p: number): Configuration => {
          let c = candidates.get(p);
          if (!c) candidates.set(p, (c = without(at + p, 1)));
          return c;
        };
        const found = await findInteresting(
          units.length - at,
          (p, s) =>
            hooks.test(candidateAt(p), s, { kind: "complement", index: at + p, round, granularity: 1 }),
          {
            jobs: options.jobs,
            firstWins: options.firstWins,
            ...(signal ? { signal } : {}),
          },
        );
        if (found < 0) break;
        at += found;
        const candidate = candidateAt(found);
        units = candidate.toArray();
        hooks.commit?.(candidate);
        changed = true;
        emit({ type: "reduced", round, kind: "complement", index: at, granularity: 1, size: units.length });
        // The run that starts at `at`: one unit went; find how many more go with it. Linear for
        // small runs, then doubling to bracket the end, then bisection inside the bracket.
        let removed = 1;
        let lastSingleFailed = false;
        let linear = true;
        let step = 1;
        for (;;) {
          if (at >= units.length) break;
          const more = linear ? 1 : step;
          if (more > units.length - at) {
            if (linear) break;
            step = Math.max(1, Math.floor(step / 2));
            if (step === 1 && more === 1) break;
            continue;
          }
          if (await tryRemove(at, more)) {
            removed += more;
            if (linear && removed >= 4) linear = false;
            if (!linear) step = more * 2;
          } else if (linear || more === 1) {
            lastSingleFailed = true;
            break;
          } else {
            step = Math.max(1, Math.floor(more / 2));
          }
        }
        // The unit now at `at` was just tried alone and is needed: the scan goes on after it.
        if (lastSingleFailed) at++;
      }
      if (!options.ddStar || !changed) return { kind: "done", config: Configuration.of(units), rounds };
    }
  } catch (error) {
    if (signal?.aborted)
      return { kind: "stopped", config: Configuration.of(units), rounds, reason: signal.reason };
    throw error;
  }
}
