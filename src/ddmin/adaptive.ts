/**
 * Adaptive deletion, for lists where most units are needed (the polish after the tree phases): a
 * scan that tries each unit alone, left to right, and, where one can go, how many units from there
 * can go at once, by growing the run 1, 2, 3, 4, then doubling, then halving back (the integer
 * search of Hypothesis's shrinker, which Shrink Ray uses too). Not from the papers; Picire has no
 * counterpart.
 *
 * When a whole scan removes nothing, neighbouring pairs are tried (units i and i+1 together), left to
 * right: two units that can only go together (a key and its value, an opening and a closing token)
 * are what ddmin's larger subsets find and single tries cannot. After a pair goes, the scans start
 * again. Their tests are labelled "pair" (a syntax filter that checks only guesses checks them:
 * syntax-filter.ts).
 *
 * What it promises: the result is 1-minimal relative to the test (the last scan of single units
 * removed nothing, so every unit was tried alone against the final list), like ddmin's, and no two
 * neighbouring units can go together. Without `ddStar` the scans stop after the first pass that
 * changed something, as ddmin without DD* does. What it costs: two tests per unit when nothing can
 * go (ddmin's complement and subset rounds spend about three per unit then), plus O(log r) tests per
 * run of r removable units. Where most units can go, ddmin's halving is cheaper: this is for the
 * passes whose units are mostly needed.
 *
 * Deterministic with parallel jobs: the single-unit tries from the scan's position are one round of
 * `findInteresting` (the lowest interesting position wins, as the sequential scan would have it);
 * each step of a run's growth depends on the last answer, so the steps either answer leads to are
 * tested speculatively (speculate.ts), and only the answers one job would use are used.
 */
import { Configuration } from "./configuration.js";
import type { DdminEvent, DdminHooks, DdminOptions, DdminResult } from "./ddmin.js";
import { findInteresting } from "./round.js";
import { speculate, type Proposal } from "./speculate.js";

/** Where the growth of a removed run stands (see `nextGrowth`). */
interface Growth {
  /** The units, without what the run lost so far. */
  readonly units: readonly number[];
  /** Where the run starts. */
  readonly at: number;
  /** Units removed from `at` so far. */
  readonly removed: number;
  /** Growing one unit at a time (the first 4), else by `step`. */
  readonly linear: boolean;
  readonly step: number;
  /** The growth ended at a single unit that could not go: it is needed, the scan goes on after it. */
  readonly lastSingleFailed: boolean;
}

interface GrowthProposal extends Proposal {
  /** The state with its next step: `more` units from `at` to try without. */
  readonly next: Growth & { readonly more: number };
}

/**
 * The next step of a growth: how many more units to try removing from `at`, after the steps that
 * need no test (a step larger than what is left is halved); undefined when the growth is over.
 */
function nextGrowth(state: Growth): (Growth & { more: number }) | undefined {
  let { step } = state;
  for (;;) {
    if (state.lastSingleFailed || state.at >= state.units.length) return undefined;
    const more = state.linear ? 1 : step;
    if (more > state.units.length - state.at) {
      if (state.linear) return undefined;
      step = Math.max(1, Math.floor(step / 2));
      if (step === 1 && more === 1) return undefined;
      continue;
    }
    return { ...state, step, more };
  }
}

/** The growth after the answer to removing `next.more` units (the candidate `without`). */
function grow(next: Growth & { more: number }, without: Configuration, interesting: boolean): Growth {
  // `next` came from nextGrowth, so its lastSingleFailed is false.
  const { more, ...state } = next;
  if (interesting) {
    const removed = state.removed + more;
    const linear = state.linear && removed < 4;
    return { ...state, units: without.toArray(), removed, linear, step: linear ? state.step : more * 2 };
  }
  if (state.linear || more === 1) return { ...state, lastSingleFailed: true };
  return { ...state, step: Math.max(1, Math.floor(more / 2)) };
}

export async function adaptive(
  initial: Configuration | ArrayLike<number>,
  hooks: DdminHooks,
  options: Pick<DdminOptions, "ddStar" | "jobs" | "firstWins" | "pairs">,
): Promise<DdminResult> {
  let units = (initial instanceof Configuration ? initial : Configuration.of(initial)).toArray();
  let rounds = 0;
  const signal = hooks.signal;
  const emit = (event: DdminEvent): void => hooks.onEvent?.(event);
  const without = (from: number, count: number): Configuration =>
    Configuration.of([...units.slice(0, from), ...units.slice(from + count)]);
  /** The growth steps' answers so far, for the speculation's guess of the next one. */
  const grown = { tests: 0, yes: 0 };
  const roundOf = new WeakMap<object, number>();
  /**
   * One round: each run of `width` units starting at `at` or later, tried without it; the first
   * interesting removal in order is committed. Its position, or -1 when none can go.
   */
  const firstRemovable = async (at: number, width: number, kind: "complement" | "pair"): Promise<number> => {
    signal?.throwIfAborted();
    const round = ++rounds;
    emit({ type: "round", round, granularity: width, size: units.length, at });
    const candidates = new Map<number, Configuration>();
    const candidateAt = (p: number): Configuration => {
      let c = candidates.get(p);
      if (!c) candidates.set(p, (c = without(at + p, width)));
      return c;
    };
    const found = await findInteresting(
      units.length - (width - 1) - at,
      (p, s) => hooks.test(candidateAt(p), s, { kind, index: at + p, round, granularity: width }),
      { jobs: options.jobs, firstWins: options.firstWins, ...(signal ? { signal } : {}) },
    );
    if (found < 0) return -1;
    const candidate = candidateAt(found);
    units = candidate.toArray();
    hooks.commit?.(candidate);
    emit({
      type: "reduced",
      round,
      kind: "complement",
      index: at + found,
      granularity: width,
      size: units.length,
    });
    return at + found;
  };
  /** Neighbouring pairs, left to right, each pair that can go removed; whether any went. */
  const pairScan = async (): Promise<boolean> => {
    let changed = false;
    let at = 0;
    while (at + 1 < units.length) {
      const removed = await firstRemovable(at, 2, "pair");
      if (removed < 0) break;
      changed = true;
      // The unit before the removed pair may now pair with the one after it.
      at = Math.max(0, removed - 1);
    }
    return changed;
  };
  try {
    for (let iteration = 0; ; iteration++) {
      emit({ type: "iteration", iteration, size: units.length });
      let changed = false;
      let at = 0;
      while (at < units.length) {
        // Each unit from `at` on, alone; the first interesting removal in order.
        const position = await firstRemovable(at, 1, "complement");
        if (position < 0) break;
        at = position;
        changed = true;
        // The run that starts at `at`: one unit went; find how many more go with it. Linear for
        // small runs, then doubling to bracket the end, then bisection inside the bracket. Each
        // step depends on the last answer: with parallel jobs the steps either answer leads to are
        // tested speculatively (speculate.ts), to the same commits as one job.
        const from = at;
        const end = await speculate<Growth, GrowthProposal>(
          {
            propose: (state) => {
              const next = nextGrowth(state);
              if (next === undefined) return undefined;
              const candidate = Configuration.of([
                ...next.units.slice(0, from),
                ...next.units.slice(from + next.more),
              ]);
              return { candidate, chance: (grown.yes + 1) / (grown.tests + 2), next };
            },
            after: (_, { candidate, next }, interesting) => grow(next, candidate, interesting),
          },
          { units, at: from, removed: 1, linear: true, step: 1, lastSingleFailed: false },
          {
            test: (proposal, s) => {
              const round = ++rounds;
              roundOf.set(proposal, round);
              const count = proposal.next.more;
              emit({ type: "round", round, granularity: count, size: proposal.next.units.length });
              const label = { kind: "complement", index: from, round, granularity: count } as const;
              return hooks.test(proposal.candidate, s, label).then((yes) => {
                if (!s.aborted) {
                  grown.tests++;
                  if (yes) grown.yes++;
                }
                return yes;
              });
            },
            commit: (proposal) => {
              units = proposal.candidate.toArray();
              hooks.commit?.(proposal.candidate);
              const round = roundOf.get(proposal)!;
              const granularity = proposal.next.more;
              emit({
                type: "reduced",
                round,
                kind: "complement",
                index: from,
                granularity,
                size: units.length,
              });
            },
            ...(hooks.prepare ? { prepare: hooks.prepare.bind(hooks) } : {}),
          },
          options.jobs,
          signal,
        );
        const lastSingleFailed = end.lastSingleFailed;
        // The unit now at `at` was just tried alone and is needed: the scan goes on after it.
        if (lastSingleFailed) at++;
      }
      if (!changed && options.pairs !== false) changed = await pairScan();
      if (!options.ddStar || !changed) return { kind: "done", config: Configuration.of(units), rounds };
    }
  } catch (error) {
    if (signal?.aborted)
      return { kind: "stopped", config: Configuration.of(units), rounds, reason: signal.reason };
    throw error;
  }
}
