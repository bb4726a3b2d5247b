import type { NextIf } from "../outcome.js";
import type { Algorithm } from "./minimize.js";
import { Configuration } from "./configuration.js";
import {
  candidateOf,
  concatLoops,
  reducedTo,
  roundLoopOrder,
  withoutTwins,
  type CandidateRef,
  type Order,
  type Strategy,
} from "./order.js";
import { nextGranularity, Partition, type SplitFactor } from "./partition.js";
import { findInteresting } from "./round.js";
import { speculativeDdmin, type AnswerRate } from "./speculative-ddmin.js";

/** Resolved options of ddmin^ν (every field set; see `resolveDdminOptions` for defaults and checks). */
export interface DdminOptions {
  readonly splitFactor: SplitFactor;
  readonly strategy: Strategy;
  readonly subsetOrder: Order;
  readonly complementOrder: Order;
  /** See RoundOrder. */
  readonly subsetGranularity?: number;
  /** DD*: run ddmin again on its own result until a run removes nothing. */
  readonly ddStar: boolean;
  /** Tests under way at once; 1 is the sequential algorithm. */
  readonly jobs: number;
  /**
   * With jobs > 1 and firstWins: test subsets and complements in one parallel round (Algorithm 4,
   * "combined"). Deterministic runs with jobs > 1 follow the one-job scan (speculative-ddmin.ts).
   */
  readonly combine: boolean;
  /** With jobs > 1: commit the first interesting candidate to finish, not the sequential choice. */
  readonly firstWins: boolean;
  /**
   * The algorithm of each list reduction (`minimize`): ddmin (default), or ProbDD (probdd.ts), which
   * uses only `ddStar` and `jobs` of these options (its parallel tests are speculative, and always
   * deterministic).
   */
  readonly algorithm?: Algorithm;
  /**
   * With algorithm "probdd": the initial probability that a unit is needed (default: the paper's
   * 0.1). A tree pass sets it for each search when `learnP0` is on.
   */
  readonly p0?: number;
  /**
   * With algorithm "probdd" in a tree pass: each search starts from a p0 learned from the units the
   * pass's earlier searches decided (learnedP0 in probdd.ts), not the paper's 0.1.
   */
  readonly learnP0?: boolean;
  /**
   * With algorithm "adaptive": lists of at most this many units are reduced by ddmin instead (its
   * complements and subsets remove units that only go together, which a scan of runs cannot).
   */
  readonly adaptiveAbove?: number;
  /** With algorithm "adaptive": whether neighbouring pairs are tried after a fruitless scan (default yes). */
  readonly pairs?: boolean;
  /**
   * With algorithm "probdd" and jobs > 1: how its chances fared so far, shared by every ProbDD
   * search made with these options (a tree pass makes one per level and iteration); see probdd.ts.
   */
  readonly calibration?: ChanceCalibration;
  /**
   * With algorithm "ddmin", jobs > 1 and deterministic: how often the scan's tests came back
   * interesting lately, shared by every ddmin search made with these options (speculative-ddmin.ts).
   */
  readonly answerRate?: AnswerRate;
}

/**
 * How well a model's chances that candidates are interesting fared: interesting answers against the
 * sum of the chances it gave the candidates answered. Only steers speculation (which tests run
 * beside the one the one-job run makes), never what is committed.
 */
export class ChanceCalibration {
  #yes = 0;
  #model = 0;

  /** A candidate the model gave `model` was answered. */
  record(model: number, interesting: boolean): void {
    this.#model += model;
    if (interesting) this.#yes++;
  }

  /** `model` scaled by how the model's chances fared (add-one smoothed), at most 1. */
  scale(model: number): number {
    return Math.min(1, (model * (this.#yes + 1)) / (this.#model + 1));
  }
}

/**
 * Where a candidate comes from: round r, subset or complement of part `index` at granularity n. Tree
 * passes use the same label, with `level` (the depth of the nodes tried), "empty" for the removal of
 * the single node of a level, "hoist" for a hoisting candidate (`index` = its position in the scan),
 * "replace" for one node replaced by the biggest phase (`index` = its position in the round), and
 * "pair" for adaptive deletion's neighbouring pairs.
 */
export interface TestLabel {
  /**
   * `rewrite`: a candidate of the rename or literal pass (tokens rewritten, not removed); `pair`: two
   * neighbouring units removed together by adaptive deletion after a scan that removed nothing.
   */
  readonly kind: CandidateRef["kind"] | "empty" | "hoist" | "replace" | "rewrite" | "pair";
  readonly index: number;
  readonly round: number;
  readonly granularity: number;
  readonly level?: number;
}

export type DdminEvent =
  | {
      readonly type: "iteration";
      readonly iteration: number;
      readonly size: number;
      /** ProbDD only: the initial probability its units start from in this run. */
      readonly p0?: number;
    }
  | {
      readonly type: "round";
      readonly round: number;
      readonly granularity: number;
      readonly size: number;
      /**
       * Adaptive deletion's scans only: the first unit this round tries (alone, or with its
       * neighbour in a scan of pairs); the units before it were tried in this scan and stay.
       */
      readonly at?: number;
    }
  | {
      readonly type: "reduced";
      readonly round: number;
      readonly kind: "subset" | "complement";
      readonly index: number;
      readonly granularity: number;
      readonly size: number;
    }
  | { readonly type: "granularity"; readonly round: number; readonly from: number; readonly to: number };

export interface DdminHooks {
  /** Is this configuration interesting? Must honour `signal` (reject or resolve soon after abort). */
  test(config: Configuration, signal: AbortSignal, label: TestLabel): Promise<boolean>;
  /**
   * Optional: get `config` ready for a test that may come soon (see RoundRunOptions.prepare; with
   * `nextIf`, it is the next test after that answer of the one running now); the same Configuration
   * object is then passed to `test`. Returns false when it needs nothing.
   */
  prepare?(config: Configuration, nextIf: NextIf | undefined): boolean;
  /** Called with every configuration ddmin moves to, before it tests anything smaller. */
  commit?(config: Configuration): void;
  /**
   * Optional: whether a test started now beside the running ones would likely have a core to
   * itself (default true). ProbDD's speculation starts its unlikely tests only then (probdd.ts).
   */
  spare?(): boolean;
  onEvent?(event: DdminEvent): void;
  /** Stops the reduction; the result is then `stopped` with the smallest configuration so far. */
  signal?: AbortSignal;
}

export type DdminResult =
  | { readonly kind: "done"; readonly config: Configuration; readonly rounds: number }
  | {
      readonly kind: "stopped";
      readonly config: Configuration;
      readonly rounds: number;
      readonly reason: unknown;
    };

/**
 * ddmin^ν (Zeller & Hildebrandt 2002; split factor of Hodován, Kiss & Gyimóthy, Algorithm 3),
 * with the practical variants of Hodován & Kiss 2016: reduce-case order, parallel and combined loops.
 *
 * `initial` (a `Configuration`, or ascending atom indices such as a plain array) must be interesting
 * (the caller checked); the result is an interesting, 1-minimal
 * sub-configuration (relative to `hooks.test`), unless the run was stopped.
 *
 *   n = min(|c|, ν)
 *   loop:                               (one iteration of this loop is one "round")
 *     some Δi interesting  → c = Δi,      n = min(|Δi|, ν)          (reduce to subset)
 *     some ∇i interesting  → c = ∇i,      keep the other n − 1 parts (reduce to complement;
 *                                          one part left → n = min(|c|, ν), i.e. μ^ν(n − 1))
 *     n < |c|              → n = min(|c|, n·ν), re-split c           (increase granularity)
 *     otherwise            → done
 */
export async function ddmin(
  initial: Configuration | ArrayLike<number>,
  hooks: DdminHooks,
  options: DdminOptions,
): Promise<DdminResult> {
  let config: Configuration = initial instanceof Configuration ? initial : Configuration.of(initial);
  if (options.jobs > 1 && !options.firstWins) return speculativeDdmin(config, hooks, options);
  let rounds = 0;
  /**
   * The first candidate of a next round, made while preparing it during the previous round: after
   * nothing was found (`after` undefined), or after the candidate `after` was found interesting.
   */
  let carried: { after?: CandidateRef; parts: Partition; offset: number; first: Configuration }[] = [];
  const signal = hooks.signal;
  const emit = (event: DdminEvent): void => hooks.onEvent?.(event);

  try {
    for (let iteration = 0; ; iteration++) {
      emit({ type: "iteration", iteration, size: config.length });
      let changed = false;
      let parts = Partition.whole(config);
      let offset = 0;

      while (config.length >= 2) {
        signal?.throwIfAborted();
        if (parts.count < 2) {
          parts = Partition.split(config, nextGranularity(config.length, 1, options.splitFactor));
        }
        const n = parts.count;
        const round = ++rounds;
        emit({ type: "round", round, granularity: n, size: config.length });

        // The finer split this round leads to if nothing in it is interesting, and that round's first
        // candidate: made at most once, when it is prepared during this round, and then used.
        let finer: Partition | undefined;
        const split = (): Partition =>
          (finer ??= Partition.split(config, nextGranularity(config.length, n, options.splitFactor)));
        const carry = (after: CandidateRef | undefined, next: Partition, at: number): Configuration => {
          const loops = roundLoopOrder(next.count, at % next.count, options);
          const made = {
            ...(after ? { after } : {}),
            parts: next,
            offset: at,
            first: candidateOf(next, loops[0]!.at(0)),
          };
          // Only the last test's is worth keeping (a round may have thousands of tests).
          if (after) carried = carried.filter((c) => c.after === undefined);
          carried.push(made);
          return made.first;
        };
        const nextFirst =
          n < config.length
            ? (): Configuration => {
                const next = split();
                // The rotation offset keeps its relative place in the finer split (as below).
                return carry(undefined, next, Math.floor((offset * next.count) / n));
              }
            : undefined;
        const roundParts = parts;
        // What the next round tests first if `hit` is interesting (undefined: no round follows).
        const firstIfFound = (hit: CandidateRef): Configuration | undefined => {
          const next = reducedTo(roundParts, hit);
          const size = next.parts.config.length;
          if (size < 2) return undefined;
          const split =
            next.parts.count < 2
              ? Partition.split(next.parts.config, nextGranularity(size, 1, options.splitFactor))
              : next.parts;
          return carry(hit, split, next.offset);
        };
        const first = carried.find((c) => c.parts === parts && c.after === undefined)?.first;
        carried = [];
        const hit = await testRound(parts, offset, round, hooks, options, first, nextFirst, firstIfFound);
        if (hit) {
          changed = true;
          const prepared = carried.find((c) => c.after?.kind === hit.kind && c.after.index === hit.index);
          if (prepared) {
            // Its next round was made while this one ran: the same partition and first candidate.
            parts = prepared.parts;
            offset = prepared.offset;
            carried = [{ parts, offset, first: prepared.first }];
          } else {
            ({ parts, offset } = reducedTo(parts, hit));
          }
          config = parts.config;
          hooks.commit?.(config);
          emit({ type: "reduced", round, ...hit, granularity: n, size: config.length });
        } else if (n < config.length) {
          const next = split();
          // The rotation offset keeps its relative place in the finer split.
          offset = Math.floor((offset * next.count) / n);
          parts = next;
          emit({ type: "granularity", round, from: n, to: next.count });
        } else {
          break;
        }
      }
      if (!options.ddStar || !changed) return { kind: "done", config, rounds };
    }
  } catch (error) {
    if (signal?.aborted) return { kind: "stopped", config, rounds, reason: signal.reason };
    throw error;
  }
}

/**
 * Runs one round: its loops one after another (or all as one, when combined). Sequentially (one
 * job), the loops are scanned as one: the same candidates in the same order, the first interesting
 * one wins, and a candidate can be prepared across the end of a loop. `nextFirst` gives the first
 * candidate of the next round if this one finds nothing (for preparing it during the last test);
 * `first`, when given, is this round's first candidate, made so by the previous round.
 */
async function testRound(
  parts: Partition,
  offset: number,
  round: number,
  hooks: DdminHooks,
  options: DdminOptions,
  first: Configuration | undefined,
  nextFirst: (() => Configuration) | undefined,
  firstIfFound: (hit: CandidateRef) => Configuration | undefined,
): Promise<CandidateRef | undefined> {
  const n = parts.count;
  let loops = roundLoopOrder(n, offset % n, options);
  if (options.combine && options.jobs > 1) loops = [withoutTwins(concatLoops(loops), n)];
  else if (options.jobs <= 1) loops = [concatLoops(loops)];
  const prepare = hooks.prepare?.bind(hooks);
  for (const [l, loop] of loops.entries()) {
    // A prepared candidate is made once: its test gets the same Configuration object.
    const made = new Map<number, Configuration>();
    const candidateAt = (p: number): Configuration => {
      let candidate = made.get(p) ?? (l === 0 && p === 0 ? first : undefined);
      if (candidate === undefined) {
        candidate = candidateOf(parts, loop.at(p));
        if (prepare) made.set(p, candidate);
      }
      return candidate;
    };
    const prepareAt = (p: number, nextIf: "not-interesting" | undefined): boolean => {
      if (p < loop.length) return prepare!(candidateAt(p), nextIf);
      // After the last loop: the next round's first candidate (made once, see ddmin's `split`).
      return l === loops.length - 1 && nextFirst !== undefined && prepare!(nextFirst(), nextIf);
    };
    // Sequentially, what follows a found candidate is known too: the next round's first candidate.
    const prepareIfFound = (p: number): void => {
      const after = firstIfFound(loop.at(p));
      if (after !== undefined) prepare!(after, "interesting");
    };
    const position = await findInteresting(
      loop.length,
      (p, signal) => {
        const candidate = candidateAt(p);
        made.delete(p);
        return hooks.test(candidate, signal, { ...loop.at(p), round, granularity: n });
      },
      {
        jobs: options.jobs,
        firstWins: options.firstWins,
        signal: hooks.signal,
        ...(prepare ? { prepare: prepareAt, prepareIfFound } : {}),
      },
    );
    if (position >= 0) return loop.at(position);
  }
  return undefined;
}
