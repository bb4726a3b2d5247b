/**
 * Evaluating the candidates of one loop (or of a combined round), sequentially or with parallel jobs,
 * with cancellation (Hodován & Kiss, "Practical improvements…", Algorithms 3 and 4: the parallel
 * forall with a parallel break).
 */

export interface RoundRunOptions {
  /** How many candidates may be under test at once (1 = the sequential algorithm). */
  readonly jobs: number;
  /**
   * false (default): deterministic. The answer is the interesting candidate with the lowest position,
   * the one the sequential scan would have committed; once one is found, only the candidates before
   * it keep running. true: the first interesting candidate to finish wins and everything else stops.
   */
  readonly firstWins: boolean;
  /** Aborting it cancels every running evaluation; the round then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Gets the candidate at `position` ready for its test before the test is due (e.g. writes its
   * file), so that its test starts at once when a slot frees. Called while every slot is busy, for
   * the next position to launch, in a later macrotask than the launches (so the running tests' start
   * comes first). Returns false when the candidate needs nothing (its outcome is cached): the next
   * position is tried then, up to PREPARE_SCAN of them. `position === count` stands for what comes
   * after this round when nothing in it is interesting. Speculative: a prepared candidate may never
   * be tested (an earlier one was interesting), and preparing changes no outcome. With jobs = 1 it
   * gets `nextIf` "not-interesting": the position is then the next launched if the test running now
   * is not interesting (the positions in between are cached: a cache answer launches the next at
   * once).
   */
  readonly prepare?: (position: number, nextIf: "not-interesting" | undefined) => boolean;
  /**
   * With jobs = 1: prepares what the caller will test next if the candidate at `position`, now under
   * test, is interesting (the round then ends). Called once per test, before `prepare`.
   */
  readonly prepareIfFound?: (position: number) => void;
}

/** How many positions past the next to launch one preparation may look at to find an uncached one. */
const PREPARE_SCAN = 8;

/** Tests the candidate at `position`; resolves true when it is interesting. Must honour `signal`. */
export type EvaluateCandidate = (position: number, signal: AbortSignal) => Promise<boolean>;

/**
 * Finds an interesting candidate among positions 0 … count − 1 and returns its position, or −1.
 *
 * Every evaluation it starts has settled when the returned promise settles: nothing keeps running
 * after a round is decided. Evaluations that are no longer needed are aborted through their signal.
 */
export function findInteresting(
  count: number,
  evaluate: EvaluateCandidate,
  options: RoundRunOptions,
): Promise<number> {
  const jobs = Math.max(1, Math.floor(options.jobs));
  const outer = options.signal;
  const running = new Map<number, AbortController>();
  let next = 0;
  /** Positions below this were prepared (or found to need nothing). */
  let preparedTo = 0;
  let preparing = false;
  /** With jobs = 1: positions below this had what follows them if found prepared. */
  let preparedIfFound = 0;
  let found = Number.POSITIVE_INFINITY;
  let failure: { error: unknown } | undefined;

  return new Promise<number>((resolve, reject) => {
    const onOuterAbort = (): void => {
      for (const controller of running.values()) controller.abort(outer?.reason);
    };
    outer?.addEventListener("abort", onOuterAbort, { once: true });

    const finish = (): void => {
      outer?.removeEventListener("abort", onOuterAbort);
      if (failure) reject(failure.error);
      else if (outer?.aborted) reject(outer.reason);
      else resolve(Number.isFinite(found) ? found : -1);
    };

    const cancelAfter = (position: number): void => {
      for (const [p, controller] of running) {
        if (p > position || options.firstWins) controller.abort(new Error("candidate no longer needed"));
      }
    };

    const settle = (position: number, interesting: boolean | undefined): void => {
      running.delete(position);
      if (interesting === true && !failure && position < found) {
        found = position;
        cancelAfter(position);
      }
      pump();
    };

    const stopLaunching = (): boolean =>
      failure !== undefined ||
      outer?.aborted === true ||
      (options.firstWins ? Number.isFinite(found) : next >= found);

    const pump = (): void => {
      while (running.size < jobs && next < count && !stopLaunching()) {
        const position = next++;
        const controller = new AbortController();
        running.set(position, controller);
        let promise: Promise<boolean>;
        try {
          promise = evaluate(position, controller.signal);
        } catch (error) {
          promise = Promise.reject(error);
        }
        promise.then(
          (interesting) => settle(position, controller.signal.aborted ? undefined : interesting),
          (error: unknown) => {
            // An evaluation we cancelled may reject with the abort reason; anything else is a real error.
            if (!controller.signal.aborted && !failure) {
              failure = { error };
              for (const c of running.values()) c.abort(new Error("round failed"));
            }
            settle(position, undefined);
          },
        );
      }
      if (running.size === 0) finish();
      else if (
        (options.prepare || options.prepareIfFound) &&
        running.size >= jobs &&
        !preparing &&
        (preparedTo <= next || (jobs === 1 && options.prepareIfFound !== undefined && preparedIfFound < next))
      ) {
        preparing = true;
        setImmediate(prepareNext);
      }
    };

    /** Prepares the first position from `next` on that needs it (see RoundRunOptions.prepare). */
    const prepareNext = (): void => {
      preparing = false;
      if (running.size === 0 || stopLaunching()) return;
      if (jobs === 1 && options.prepareIfFound && preparedIfFound < next) {
        preparedIfFound = next;
        try {
          options.prepareIfFound([...running.keys()][0]!);
        } catch {
          // an optimization only, as below
        }
      }
      if (!options.prepare || preparedTo > next) return;
      const end = Math.min(count + 1, next + PREPARE_SCAN);
      for (let position = Math.max(next, preparedTo); position < end; position++) {
        preparedTo = position + 1;
        try {
          if (options.prepare(position, jobs === 1 ? "not-interesting" : undefined)) return;
        } catch {
          return; // preparing is an optimization: the test itself will meet (and report) any failure
        }
      }
    };

    pump();
  });
}
