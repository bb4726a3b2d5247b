/**
 * Probabilistic Delta Debugging (ProbDD; Wang, Lam, Xiong et al., ESEC/FSE 2021), an alternative to
 * ddmin for one list of units: every unit carries the probability p that it is needed (that removing
 * it makes the input uninteresting), p0 at the start. Each step removes the set S of units that
 * maximises the expected number of units removed,
 *
 *     E(S) = |S| · ∏_{u ∈ S} (1 − p_u),
 *
 * which is a prefix of the units sorted by p (ascending); ties keep document order, so runs are
 * deterministic. If the input without S is interesting, S goes for good; if not, Bayes' rule, with
 * the assumption that the units are needed independently, raises each p_u of S to
 *
 *     p_u / (1 − ∏_{v ∈ S} (1 − p_v)),
 *
 * which is 1 for a single unit (a unit tested alone and needed is kept for good). The search ends
 * when every unit left has p = 1: each was tested alone (see `ddStar` for 1-minimality).
 *
 * The next subset depends on the last answer, but what follows either answer is known before the
 * test ends: the Bayes update above, or the units without S. So with parallel jobs the tests the
 * run may make next run at once (speculate.ts): the untested states it is likeliest to reach, by the
 * chance ∏(1 − p_u) that S can go, scaled by how those chances fared so far in this run. The answers
 * it uses are those of the one-job run's tests, in its order: the same commits and result with any
 * number of jobs (bench section `jobs`); the other tests are the price of the jobs.
 * Same hooks, labels and events as ddmin, so caches, the evaluator and the tree passes use it
 * unchanged.
 */
import { Configuration } from "./configuration.js";
import { ChanceCalibration, type DdminEvent, type DdminHooks, type DdminResult } from "./ddmin.js";
import { speculate } from "./speculate.js";

/** The paper's initial probability. */
export const PROBDD_P0 = 0.1;

/** How many units the paper's p0 weighs as the prior of a learned p0 (learnedP0). */
export const P0_PRIOR_UNITS = 4;

/**
 * Units that earlier ProbDD searches of a pass decided: how many they started with, and how many they
 * kept (each kept unit was tested alone and found needed).
 */
export interface NeedRecord {
  readonly decided: number;
  readonly needed: number;
}

export const NO_NEEDS: NeedRecord = Object.freeze({ decided: 0, needed: 0 });

/** `record` after a search that started with `decided` units and kept `needed`. */
export function addNeeds(record: NeedRecord, decided: number, needed: number): NeedRecord {
  return { decided: record.decided + decided, needed: record.needed + needed };
}

/**
 * The initial probability for the next search of a pass, learned from its earlier searches: the mean
 * of a Beta prior centred on the paper's p0 and worth P0_PRIOR_UNITS units, updated with the units
 * decided so far, (p0 · w + needed) / (w + decided). Not from the paper, which fixes p0 = 0.1 for
 * every search: after coarse HDD nearly every node a level still has is needed, and from p0 = 0.1
 * ProbDD first tries to remove them in groups, which fail, before it tests each alone — about twice as
 * many tests as units where the units are all needed (as many from p0 ≥ 0.5). A level where most
 * units go keeps the estimate low, and the groups large.
 */
export function learnedP0(record: NeedRecord): number {
  return (PROBDD_P0 * P0_PRIOR_UNITS + record.needed) / (P0_PRIOR_UNITS + record.decided);
}

/**
 * With parallel jobs on a machine with no idle core (DdminHooks.spare), a speculative test starts
 * only when the search reaches it with at least this chance. A test that is not needed then takes
 * CPU from the ones that are: at -j 2 on 2 cores with CPU-bound oracles, the 10 shared cases took 784
 * tests against 834 with every slot filled, the same results (bench/results/2026-11-29-spare-floor);
 * six generated JavaScript programs (a node oracle, one core a test) 905 against 983 in the same
 * time with a first version that acted at any -j (bench/results/2026-11-29-busy-speculation). With
 * an idle core, or more jobs than cores (tests that wait), every slot is filled, as before. On a
 * 130 KB input, where coarse HDD's one-node tests leave a slot idle, a floor of 0.5 kept the slots
 * busy 96 % of the time against 76 %, for 9 % more tests and the same sizes after 2, 3 and 4
 * minutes (bench/results/2026-12-02-timeouts-speculation).
 */
export const BUSY_MIN_REACH = 0.7;

/** Probabilities this close to 1 count as 1 (repeated updates approach 1 from below). */
const CERTAIN = 1 - 1e-9;

export interface ProbddOptions {
  /** The initial probability that a unit is needed (default: the paper's 0.1). */
  readonly p0?: number;
  /**
   * Run again, from p0, on the result until a run removes nothing (as DD* does for ddmin). One run
   * ends with every unit tested alone — but against the configuration of that moment: when the test
   * is not monotone, a unit kept early may be removable once others are gone. The last run, which
   * removes nothing, tests every unit alone against the final configuration: the result is 1-minimal.
   */
  readonly ddStar?: boolean;
  /**
   * Tests run at once (default 1: one at a time). Always deterministic: the speculation commits only
   * what the one-job run would, so `--first-wins` changes nothing here.
   */
  readonly jobs?: number;
  /**
   * How the model's chances fared in earlier searches (default: a new one for this search). A tree
   * pass shares one among its levels' searches: each is short, and the speculation of one that
   * starts from nothing spreads its slots over both answers.
   */
  readonly calibration?: ChanceCalibration;
}

/**
 * The changes to p when the test without `subset` was not interesting (Bayes' rule, see above), as
 * [index, new p] pairs: a chain keeps only these, not a copy of p per link.
 */
function failure(p: readonly number[], subset: readonly number[]): [number, number][] {
  let none = 1;
  for (const i of subset) none *= 1 - p[i]!;
  return subset.map((i) => {
    const raised = p[i]! / (1 - none);
    return [i, raised >= CERTAIN ? 1 : raised];
  });
}

export async function probdd(
  initial: Configuration | ArrayLike<number>,
  hooks: DdminHooks,
  options: ProbddOptions = {},
): Promise<DdminResult> {
  const p0 = options.p0 ?? PROBDD_P0;
  if (!(p0 > 0 && p0 < 1)) throw new RangeError(`ProbDD's initial probability must be in (0, 1), got ${p0}`);
  let units = (initial instanceof Configuration ? initial : Configuration.of(initial)).toArray();
  let rounds = 0;
  const signal = hooks.signal;
  const emit = (event: DdminEvent): void => hooks.onEvent?.(event);
  const calibration = options.calibration ?? new ChanceCalibration();
  try {
    for (let iteration = 0; ; iteration++) {
      emit({ type: "iteration", iteration, size: units.length, p0 });
      let changed = false;
      const base = rounds;
      const roundOf = new WeakMap<object, number>();
      const last = await speculate(
        {
          propose: ({ units, p }) => {
            const subset = selectSubset(p);
            if (subset.length === 0) return undefined;
            const drop = new Set(subset);
            let model = 1;
            for (const i of subset) model *= 1 - p[i]!;
            // The model's chance, scaled by how its estimates fared so far (speculative answers
            // too), over every search that shares the calibration. After coarse HDD most subsets
            // fail, far more than p0 predicts, and the speculation then follows failures.
            const chance = calibration.scale(model);
            const candidate = Configuration.of(units.filter((_, i) => !drop.has(i)));
            return {
              candidate,
              chance,
              model,
              subset,
              size: units.length,
            };
          },
          after: ({ units, p }, { subset }, interesting) => {
            if (interesting) {
              const drop = new Set(subset);
              return { units: units.filter((_, i) => !drop.has(i)), p: p.filter((_, i) => !drop.has(i)) };
            }
            const next = [...p];
            for (const [i, value] of failure(p, subset)) next[i] = value;
            return { units, p: next };
          },
        },
        { units, p: units.map(() => p0) },
        {
          test: (proposal, s, index) => {
            const { candidate, size } = proposal;
            const granularity = proposal.subset.length;
            const round = base + index + 1;
            rounds = Math.max(rounds, round);
            roundOf.set(proposal, round);
            emit({ type: "round", round, granularity, size });
            return hooks
              .test(candidate, s, { kind: "complement", index: 0, round, granularity })
              .then((yes) => {
                if (!s.aborted) calibration.record(proposal.model, yes);
                return yes;
              });
          },
          commit: (proposal) => {
            const { candidate } = proposal;
            const granularity = proposal.subset.length;
            units = candidate.toArray();
            changed = true;
            hooks.commit?.(candidate);
            emit({
              type: "reduced",
              round: roundOf.get(proposal)!,
              kind: "complement",
              index: 0,
              granularity,
              size: units.length,
            });
          },
          ...(hooks.prepare ? { prepare: hooks.prepare.bind(hooks) } : {}),
          minReach: () => ((hooks.spare?.() ?? true) ? 0 : BUSY_MIN_REACH),
        },
        options.jobs ?? 1,
        signal,
      );
      units = last.units;
      if (!options.ddStar || !changed) return { kind: "done", config: Configuration.of(units), rounds };
    }
  } catch (error) {
    if (signal?.aborted) {
      return { kind: "stopped", config: Configuration.of(units), rounds, reason: signal.reason };
    }
    throw error;
  }
}

/**
 * The indices of the units to try removing: the prefix, in ascending p (document order among
 * equals), that maximises |S| · ∏(1 − p); empty when every unit is certain.
 */
export function selectSubset(p: readonly number[]): number[] {
  const open = p.map((_, i) => i).filter((i) => p[i]! < 1);
  open.sort((a, b) => p[a]! - p[b]! || a - b);
  let best = 0;
  let bestGain = 0;
  let none = 1;
  for (let k = 1; k <= open.length; k++) {
    none *= 1 - p[open[k - 1]!]!;
    const gain = k * none;
    if (gain > bestGain) {
      bestGain = gain;
      best = k;
    } else {
      break; // k·∏(1 − p) over a sorted prefix rises, then falls: the first drop is past the peak.
    }
  }
  return open.slice(0, best).sort((a, b) => a - b);
}
