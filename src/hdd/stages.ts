import {
  abortAfter,
  heldEmit,
  heldEvaluator,
  promoteNext,
  speculativeRun,
  type SpeculativeRun,
} from "../reduce/held-evaluator.js";
import type { TreeSearch } from "./search.js";

/**
 * One step of a level-wise tree algorithm: `k` counts the steps from the root, one or two per level
 * (HDDH prunes a level, then hoists among the nodes it kept). Resolves "end" when the level has no
 * nodes (the walk is over), else whether the step changed anything. Runs on `search` (its edits are
 * the step's start and, after it, its result).
 */
export type Stage = (search: TreeSearch, k: number) => Promise<"end" | boolean>;

/** A stage under way, as the main step (depth 0) or speculatively ahead of it (depth > 0). */
interface Running extends SpeculativeRun {
  readonly k: number;
  /** Its own view of the tree: starts with the edits of the stages before it, ends with its result. */
  search: TreeSearch;
  result: Promise<"end" | boolean>;
}

/**
 * Runs the stages 0, 1, 2, … of a level-wise walk on `search` to its end; whether any changed
 * anything. The result is the one of running them one after another.
 *
 * With parallel jobs, the last rounds of a level leave test slots idle (a level of three nodes has a
 * handful of candidates), and every level waits for the one before it. So up to `ahead` later stages
 * start early, from the edits they would start from if the stages before them commit nothing more:
 * on that assumption, which holds for most levels, their candidates are the ones the sequential walk
 * would test. Their tests take only the slots the earlier stages leave (the evaluator's priorities);
 * an improvement one finds waits, with its events, until every stage before it has ended unchanged,
 * and the stage waits with it (its next candidates depend on that improvement, as do the syntax
 * filter's allowance and the cache's eviction); when a stage commits an improvement, every stage
 * after it is aborted and started again once it has ended. Not from the papers, which run the levels
 * one after another: the same speculation as the rounds' (round.ts, speculate.ts), one level up.
 */
export async function runStages(search: TreeSearch, stage: Stage, ahead: number): Promise<boolean> {
  let changed = false;
  if (ahead <= 0) {
    for (let k = 0; ; k++) {
      const result = await stage(search, k);
      if (result === "end") return changed;
      if (result) changed = true;
    }
  }
  const chain: Running[] = [];
  /** The first stage known to end the walk: none are started past it. */
  let end = Number.POSITIVE_INFINITY;

  const abortLater = (index: number): void => abortAfter(chain, index, "an earlier level changed the tree");

  const start = (k: number, depth: number): Running => {
    const running: Running = { ...speculativeRun(depth), k, search, result: Promise.resolve("end") };
    const signal = AbortSignal.any([search.signal, running.controller.signal]);
    const evaluator = heldEvaluator(
      search.evaluator.withPriority(() => running.depth),
      running,
      () => abortLater(chain.indexOf(running)),
    );
    running.search = search.fork(evaluator, signal, heldEmit(running, search.emit));
    // A learned p0 (TreeSearch.needs) from the record this stage would start from if the stages
    // before it keep every unit, as it assumes: the one-job run's p0 whenever that holds.
    const before = chain[chain.length - 1];
    if (before !== undefined && depth > 0) running.search.needs = before.search.assumedNeeds();
    running.result = stage(running.search, k);
    running.result.then(
      (result) => {
        if (result === "end") end = Math.min(end, k);
      },
      // Rejections are taken where the stage becomes the main step (or ignored, if it was aborted).
      () => undefined,
    );
    return running;
  };

  /** Starts the stages after the last of the chain, from the same edits, while nothing committed. */
  const fill = (): void => {
    while (chain.length <= ahead && !chain.some((r) => r.committed)) {
      const k = chain[chain.length - 1]!.k + 1;
      if (k >= end) return;
      chain.push(start(k, chain.length));
    }
  };

  chain.push(start(0, 0));
  try {
    for (;;) {
      fill();
      const head = chain[0]!;
      const result = await head.result;
      chain.shift();
      if (result === "end") return changed;
      search.edits = head.search.edits;
      search.needs = head.search.needs;
      const moved = result || head.committed;
      if (moved) changed = true;
      const next = chain[0];
      if (next === undefined || moved) {
        // The stages ahead assumed this one would change nothing (they were aborted at its commit).
        abortLater(-1);
        await Promise.allSettled(chain.map((r) => r.result));
        chain.length = 0;
        chain.push(start(head.k + 1, 0));
        continue;
      }
      promoteNext(chain);
    }
  } finally {
    abortLater(-1);
    await Promise.allSettled(chain.map((r) => r.result));
  }
}
