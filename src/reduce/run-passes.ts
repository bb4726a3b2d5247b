import type { Pass, PassOutcome } from "../passes/pass.js";
import { YIELDING_PRIORITY, type Evaluator, type PassEvaluator } from "./evaluator.js";
import type { EventListener } from "./events.js";
import {
  abortAfter,
  heldEmit,
  heldEvaluator,
  promoteNext,
  speculativeRun,
  type SpeculativeRun,
} from "./held-evaluator.js";
import type { ResolvedOptions } from "./options.js";

/** What the passes of a run share. */
export interface PassesRun {
  readonly evaluator: Evaluator;
  readonly options: ResolvedOptions;
  readonly signal: AbortSignal;
  /** Every event of the passes, in the order of a run that makes them one after another. */
  readonly emit: EventListener;
  /** The best input so far: the original, then each improvement `emit` has passed on. */
  readonly best: () => Uint8Array;
}

/**
 * A speculative pass's tests wait for a slot behind every test of the passes before it, and of
 * their levels run ahead (hdd/stages.ts: priorities 0 to `jobs`), and give their slots to them.
 */
const PASS_PRIORITY = YIELDING_PRIORITY;

/** A pass under way, as the main one (depth 0) or ahead of it (depth > 0). */
interface Running extends SpeculativeRun {
  readonly index: number;
  result: Promise<PassOutcome>;
  /** Its run has ended (it waits, if it is ahead, to become the main pass). */
  ended: boolean;
}

/**
 * Runs `passes` in order, each from the best input so far, with a `pass-end` event after each;
 * "stopped" as soon as one is (the run's signal). The result is the one of running them one after
 * another.
 *
 * With parallel jobs, a pass's last round leaves slots idle, and most passes late in a pipeline
 * change nothing: each still costs at least one test's time, one after the other. So up to `ahead`
 * later passes start early, from the best so far, as they would if the passes before them commit
 * nothing more; their tests take only the slots those leave, and their improvements and events wait
 * until every pass before them has ended unchanged (then they are the ones a sequential run makes).
 * A pass that commits an improvement aborts the passes after it, which start again once it ended.
 * The same speculation as the levels' (hdd/stages.ts), one level up; not from the papers.
 */
export async function runPasses(
  passes: readonly Pass[],
  ahead: number,
  run: PassesRun,
): Promise<PassOutcome> {
  const chain: Running[] = [];
  /** Passes aborted by a commit of the main pass, which then settled (PassContext.settled). */
  const retired: Promise<PassOutcome>[] = [];

  const abortLater = (index: number): void => abortAfter(chain, index, "an earlier pass changed the input");

  const start = (index: number, depth: number): Running => {
    const running: Running = {
      ...speculativeRun(depth),
      index,
      result: Promise.resolve({ kind: "done" }),
      ended: false,
    };
    const { controller } = running;
    const pass = passes[index]!;
    const rank = (): number => running.depth * PASS_PRIORITY;
    const evaluator = heldEvaluator(
      ranked(run.evaluator.forPass(pass.name, undefined, rank), rank),
      running,
      () => abortLater(chain.indexOf(running)),
    );
    running.result = pass.run({
      current: run.best(),
      evaluator,
      options: run.options,
      signal: ahead > 0 ? AbortSignal.any([run.signal, controller.signal]) : run.signal,
      emit: heldEmit(running, run.emit),
      settled: () => {
        // Only the main pass: a speculative one's commits are held, not yet in the best so far.
        if (running.depth !== 0 || !running.committed || chain[0] !== running) return;
        running.committed = false;
        retired.push(...chain.splice(1).map((r) => r.result));
        fill();
      },
    });
    // A pass ahead that has ended leaves its place to the next (rejections are taken where the pass
    // becomes the main one, or ignored if it was aborted).
    running.result.then(
      () => {
        running.ended = true;
        if (!controller.signal.aborted) fill();
      },
      () => undefined,
    );
    return running;
  };

  /**
   * Starts the passes after the last of the chain, from the same input, while nothing committed:
   * up to `ahead` of them still running.
   */
  function fill(): void {
    while (
      chain.length > 0 &&
      chain.slice(1).filter((r) => !r.ended).length < ahead &&
      !chain.some((r) => r.committed)
    ) {
      const index = chain[chain.length - 1]!.index + 1;
      if (index >= passes.length) return;
      chain.push(start(index, chain.length));
    }
  }

  if (passes.length === 0) return { kind: "done" };
  chain.push(start(0, 0));
  try {
    for (;;) {
      fill();
      const head = chain[0]!;
      const outcome = await head.result;
      chain.shift();
      run.emit({
        type: "pass-end",
        pass: passes[head.index]!.name,
        size: run.best().length,
        outcome: outcome.kind,
      });
      if (outcome.kind === "stopped") return outcome;
      const next = chain[0];
      if (next === undefined || head.committed) {
        // The passes ahead assumed this one would change nothing (they were aborted at its commit).
        abortLater(-1);
        await Promise.allSettled(chain.map((r) => r.result));
        chain.length = 0;
        if (head.index + 1 >= passes.length) return { kind: "done" };
        chain.push(start(head.index + 1, 0));
        continue;
      }
      promoteNext(chain);
    }
  } finally {
    abortLater(-1);
    await Promise.allSettled([...chain.map((r) => r.result), ...retired]);
  }
}

/**
 * `base` whose tests, and those of every search inside it (PassEvaluator.withPriority), come after
 * the tests of every lower `rank()`.
 */
function ranked(base: PassEvaluator, rank: () => number): PassEvaluator {
  return {
    ...base,
    scope: (kind) => ranked(base.scope(kind), rank),
    withPriority: (priority) =>
      ranked(
        base.withPriority(() => rank() + priority()),
        rank,
      ),
  };
}

/**
 * How many passes run ahead of the current one with `jobs` tests at once (runPasses): as for the
 * levels (hdd/phases.ts, stagesAhead), none with one or two jobs. One at `-j 8` with the `jobs`
 * section's slow test: 13 small shared cases 54.9 s against 56.7 s without (the medians of 3 runs),
 * the same results (bench/results/2026-12-03-passes-ahead). More than one was not measured there.
 */
export function passesAhead(jobs: number): number {
  return jobs > 2 ? 1 : 0;
}
