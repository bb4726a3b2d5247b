/**
 * ddmin with parallel jobs as a speculative run of its one-job scan: the same tests decide, in the
 * same order, so the result is the one-job result; the jobs run the tests the scan is most likely to
 * make next, on either answer of the ones under way.
 *
 * The papers' parallel ddmin (Hodován & Kiss 2016, Algorithms 3 and 4; round.ts) runs the candidates
 * of one round at once: it bets that every test before the one a slot runs fails. When one succeeds
 * the round ends, and the next round starts only then; a round with few candidates leaves slots idle.
 * Here the one-job scan is a sequential search (speculate.ts) whose states are (partition, position
 * in the round's scan): while a test runs, both of its futures are known, across the ends of rounds
 * and of DD* iterations, and each free slot goes to the test the scan reaches with the highest
 * chance, by the rate at which the scan's tests have come back interesting lately. With few
 * successes that is the papers' bet (the next candidates of the round, then the next round's); where
 * half the tests succeed (a level of removable nodes, lines that are half needed) it is a tree of
 * both answers, a few tests deep.
 *
 * Not from the papers: the same idea as ProbDD's speculation (probdd.ts) and C-Reduce's. Used when
 * jobs > 1 and deterministic (ddmin.ts); `--first-wins` keeps the papers' rounds.
 */
import { Configuration } from "./configuration.js";
import type { DdminHooks, DdminOptions, DdminResult, TestLabel } from "./ddmin.js";
import {
  candidateOf,
  concatLoops,
  reducedTo,
  roundLoopOrder,
  withoutTwins,
  type CandidateRef,
  type Loop,
} from "./order.js";
import { nextGranularity, Partition } from "./partition.js";
import { BUSY_MIN_REACH } from "./probdd.js";
import { speculate, type Proposal } from "./speculate.js";

/**
 * The rate at which a scan's tests came back interesting lately: an exponentially weighted mean of
 * the answers (weight ANSWER_RATE_WEIGHT on the newest). Steers which tests speculation runs, never
 * what is committed. One is shared by the searches of a pass (a tree pass runs one per level).
 */
export class AnswerRate {
  #rate: number;

  constructor(prior = ANSWER_RATE_PRIOR) {
    this.#rate = prior;
  }

  record(interesting: boolean): void {
    this.#rate += ANSWER_RATE_WEIGHT * ((interesting ? 1 : 0) - this.#rate);
  }

  /** The chance that the next test is interesting, kept inside [0.02, 0.98]. */
  chance(): number {
    return Math.min(0.98, Math.max(0.02, this.#rate));
  }
}

/** Before any answer: most of ddmin's candidates fail (on the shared cases, about four in five). */
const ANSWER_RATE_PRIOR = 0.2;
/** About the last eight answers count. */
const ANSWER_RATE_WEIGHT = 1 / 8;

/** Where the one-job scan is: at `position` of the round over `parts`, or at its end. */
type ScanState =
  | {
      readonly end?: undefined;
      readonly parts: Partition;
      readonly offset: number;
      readonly loop: Loop;
      readonly position: number;
      readonly round: number;
      readonly iteration: number;
      readonly changed: boolean;
    }
  | { readonly end: Configuration; readonly round: number; readonly iteration: number };

interface ScanProposal extends Proposal {
  readonly ref: CandidateRef;
  readonly label: TestLabel;
}

export async function speculativeDdmin(
  initial: Configuration,
  hooks: DdminHooks,
  options: DdminOptions,
): Promise<DdminResult> {
  const rate = options.answerRate ?? new AnswerRate();
  const emit = hooks.onEvent?.bind(hooks) ?? ((): void => undefined);
  const signal = hooks.signal;
  let config = initial;
  let rounds = 0;

  /** The state at the start of a round over `parts` (or the end of the iteration, if too small). */
  const enter = (
    parts: Partition,
    offset: number,
    round: number,
    iteration: number,
    changed: boolean,
  ): ScanState => {
    const size = parts.config.length;
    if (size < 2) return endOfIteration(parts.config, round, iteration, changed);
    const split =
      parts.count < 2 ? Partition.split(parts.config, nextGranularity(size, 1, options.splitFactor)) : parts;
    const n = split.count;
    const loop = withoutTwins(concatLoops(roundLoopOrder(n, offset % n, options)), n);
    return { parts: split, offset, loop, position: 0, round: round + 1, iteration, changed };
  };
  const endOfIteration = (
    end: Configuration,
    round: number,
    iteration: number,
    changed: boolean,
  ): ScanState =>
    options.ddStar && changed
      ? enter(Partition.whole(end), 0, round, iteration + 1, false)
      : { end, round, iteration };

  const first = enter(Partition.whole(config), 0, 0, 0, false);
  rounds = first.round;
  emit({ type: "iteration", iteration: 0, size: config.length });
  if (first.end === undefined)
    emit({ type: "round", round: first.round, granularity: first.parts.count, size: config.length });

  try {
    await speculate<ScanState, ScanProposal>(
      {
        propose: (state) => {
          if (state.end !== undefined) return undefined;
          const ref = state.loop.at(state.position);
          return {
            candidate: candidateOf(state.parts, ref),
            chance: rate.chance(),
            ref,
            label: { ...ref, round: state.round, granularity: state.parts.count },
          };
        },
        after: (state, { ref }, interesting) => {
          if (state.end !== undefined) return state;
          const { parts, offset, round, iteration } = state;
          if (interesting) {
            const next = reducedTo(parts, ref);
            return enter(next.parts, next.offset, round, iteration, true);
          }
          if (state.position + 1 < state.loop.length) return { ...state, position: state.position + 1 };
          const n = parts.count;
          const size = parts.config.length;
          if (n < size) {
            // Increase granularity; the rotation offset keeps its relative place in the finer split.
            const finer = Partition.split(parts.config, nextGranularity(size, n, options.splitFactor));
            return enter(finer, Math.floor((offset * finer.count) / n), round, iteration, state.changed);
          }
          return endOfIteration(parts.config, round, iteration, state.changed);
        },
      },
      first,
      {
        test: (proposal, s) =>
          hooks.test(proposal.candidate, s, proposal.label).then((interesting) => {
            if (!s.aborted) rate.record(interesting);
            return interesting;
          }),
        commit: ({ candidate }) => {
          config = candidate;
          hooks.commit?.(candidate);
        },
        moved: (from, { ref, label }, interesting, to) => {
          if (interesting) {
            emit({
              type: "reduced",
              round: label.round,
              kind: ref.kind,
              index: ref.index,
              granularity: label.granularity,
              size: config.length,
            });
          }
          rounds = to.round;
          if (to.iteration !== from.iteration)
            emit({ type: "iteration", iteration: to.iteration, size: config.length });
          if (to.end !== undefined || to.round === from.round) return;
          if (!interesting && to.iteration === from.iteration) {
            emit({ type: "granularity", round: label.round, from: label.granularity, to: to.parts.count });
          }
          emit({ type: "round", round: to.round, granularity: to.parts.count, size: config.length });
        },
        minReach: () => ((hooks.spare?.() ?? true) ? 0 : BUSY_MIN_REACH),
      },
      options.jobs,
      signal,
    );
    return { kind: "done", config, rounds };
  } catch (error) {
    if (signal?.aborted) return { kind: "stopped", config, rounds, reason: signal.reason };
    throw error;
  }
}
