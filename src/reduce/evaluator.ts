import {
  createCache,
  type CacheKey,
  type CacheKind,
  type CacheOptions,
  type OutcomeCache,
} from "../cache/index.js";
import { sameBytes } from "../bytes.js";
import { Slots } from "../slots.js";
import { IdleWork, type IdleWorkFn } from "./idle-work.js";
import type { TestLabel } from "../ddmin/ddmin.js";
import { isInteresting, toOutcome, type NextIf, type Outcome } from "../outcome.js";
import type { EventListener } from "./events.js";
import type { OutcomeJournal } from "./journal.js";
import type { SyntaxFilter, SyntaxSkip } from "./syntax-filter.js";

/**
 * Tests whose priority number is at least this give their slot to a test below it that waits for
 * one, and run again later: the tests of passes run ahead (run-passes.ts), the least likely to be
 * needed, so that they do not delay the pass the reduction is in (nor each other: they never take a
 * slot from one another).
 */
export const YIELDING_PRIORITY = 1_000;

/** What a run of the test gives when it was cancelled, or gave its slot away. */
const GAVE_WAY = Symbol("gave way");

/**
 * The user's test, in-process: a function of the candidate's bytes. `true` means interesting.
 *
 * It may carry `prepare(candidate, nextIf)`: a hint that it will probably be called with `candidate`
 * (the same Uint8Array) soon, while another test runs — e.g. to write the candidate's file ahead, as
 * the command oracle does. `nextIf` is given when the reducer runs one test at a time and `candidate`
 * is the very next it will test if the test running now gives that answer: the oracle may then start
 * its test the moment that one ends so (the command oracle's follow-ups). A hint only: the call may
 * never come (the reduction stops), and nothing may depend on it.
 */
export type Oracle = ((
  candidate: Uint8Array,
  signal: AbortSignal,
) => Promise<Outcome | boolean> | Outcome | boolean) & {
  prepare?: (candidate: Uint8Array, nextIf?: NextIf) => void;
};

/** What a pass uses to ask about its candidates; bound to the pass's name and cache. */
export interface PassEvaluator {
  /** Is the candidate interesting? Cache, oracle, events: the one path every candidate takes. */
  test(key: CacheKey, signal: AbortSignal, label: TestLabel): Promise<boolean>;
  /**
   * The same path as `test`, giving the outcome itself (from the cache, the syntax filter's
   * "not-interesting", or the test); undefined when the test was cancelled (`signal` aborted).
   */
  ask(key: CacheKey, signal: AbortSignal, label: TestLabel): Promise<Outcome | undefined>;
  /**
   * The pass would take a candidate for a timeout without testing it: true when it may (reported as
   * a `timeout-skip`), false when every candidate is to be run (`--cache none`).
   */
  takeForTimeout(label: TestLabel): boolean;
  /**
   * The candidate may be tested soon (the same key object): lets the oracle get it ready while
   * another test runs (Oracle.prepare). `nextIf`: it is the next test after that answer of the one
   * running now (RoundRunOptions.prepare). Returns false when there is nothing to do: its outcome is
   * cached, or the oracle has no use for the hint.
   */
  prepare(key: CacheKey, nextIf: NextIf | undefined): boolean;
  /** The candidate is the new best: it becomes the reduction's result so far. */
  commit(key: CacheKey): void;
  /**
   * Whether a test started now beside the running ones would likely have a core to itself
   * (Evaluator.limitJobs); true when nothing says otherwise.
   */
  spare(): boolean;
  /** The pass is over: report its cache's counters when the cache is its own. */
  close(): void;
  /**
   * An evaluator for one search inside the pass. Content caches are shared anyway; a configuration
   * cache only holds within one ddmin run over one list of units, so `configurations` gets a fresh
   * one, and candidates that are not configurations (hoisting) get none.
   */
  scope(kind: "configurations" | "other"): PassEvaluator;
  /**
   * The same evaluator, whose tests wait for a free slot behind every test of a lower `priority()`
   * (read each time a slot frees; 0 is the search the run is in, higher numbers are speculative
   * searches ahead of it). Only with a limit on jobs (Evaluator.limitJobs); otherwise tests start at
   * once, as before.
   */
  withPriority(priority: () => number): PassEvaluator;
}

/**
 * The single path of every candidate, whatever pass and representation produced it (the style
 * guide's §5, Hypothesis's `cached_test_function`): bytes → outcome cache → syntax filter → oracle →
 * events, and the keeper of the best input so far. Passes only propose candidates; this decides
 * nothing about them.
 *
 * A candidate the syntax filter rejects (syntax-filter.ts) is not interesting without a test: it
 * sends a `syntax-skip` event, not a test-start/test-end pair, so `tests` still counts oracle runs
 * only. Its verdict goes into the outcome cache like an oracle's "not-interesting" (it is
 * deterministic, and the filter's allowance only falls): the candidate's first visit counts as a
 * skip, later ones as cache hits, as for a tested candidate.
 *
 * With a journal (journal.ts), a candidate that passes the cache and the filter is first looked up
 * there: a recorded answer counts as a cache hit, and every answer the oracle gives is recorded.
 *
 * Caches keyed by content are shared by all passes of a run: two passes (or two configurations of
 * one pass) that produce the same bytes are one test. A configuration cache only means something
 * within one pass, so each pass gets its own.
 */
export class Evaluator {
  private nextId = 0;
  private readonly shared: OutcomeCache | undefined;
  /** The tests running now, each with its outcome to come (undefined if it is cancelled or fails). */
  private readonly running: Running[] = [];
  /**
   * While set, no test starts: the reduction's check of the empty input has yet to be answered
   * (holdTests). Calling it starts the check (the first call only) and returns its answer.
   */
  private held: (() => Promise<void>) | undefined;
  /** Whether the next test to wait for `held` is the first, which follows the check. */
  private firstHeld = false;
  /** One test at a time: held tests wait for the check before they start, not only for their answers. */
  private heldSequential = false;
  /** With parallel jobs: the check, started in a slot (checkBeside). */
  private checking: Promise<void> | undefined;
  /** Hints given while tests are held, passed on once the first held test runs. */
  private heldHints: [Uint8Array, NextIf | undefined][] = [];
  /** With parallel jobs: the slots every test takes one of (limitJobs). */
  private slots: Slots | undefined;
  /** With parallel jobs: whether the machine has a core to spare (limitJobs). */
  private spareCore: (() => boolean) | undefined;

  constructor(
    private readonly oracle: Oracle,
    private readonly emit: EventListener,
    private readonly cacheKind: CacheKind,
    private readonly cacheOptions: CacheOptions,
    private readonly syntax?: SyntaxFilter,
    private readonly journal?: OutcomeJournal,
  ) {
    this.shared = cacheKind === "config" ? undefined : createCache(cacheKind, cacheOptions);
  }

  /**
   * Holds every test until the check that `check()` starts (on the first test, or on its own first
   * call) settles; a held test rejects with its reason if it rejects. With parallel jobs only the
   * answers are held: the tests run beside the check. With `sequential` (one test at a time) nothing
   * starts before the check has ended, and the first test is hinted to the oracle as the next if
   * the test running now, the check, is not interesting, so that the command oracle queues it
   * behind the check (Oracle.prepare) and it starts the moment the check ends.
   */
  holdTests(check: () => Promise<void>, sequential: boolean): void {
    this.held = check;
    this.firstHeld = sequential;
    this.heldSequential = sequential;
  }

  /**
   * At most `jobs` tests run at once, over all the searches of the run: the searches a pass runs
   * ahead speculatively (hdd/stages.ts) take only the slots the others leave (PassEvaluator.withPriority).
   */
  limitJobs(jobs: number, spare?: () => boolean): void {
    this.slots = new Slots(() => jobs);
    this.spareCore = spare;
  }

  /** With parallel jobs: `work` on each input offered, in slots no test wants (IdleWork). */
  idleWork(work: IdleWorkFn, signal: AbortSignal): IdleWork | undefined {
    if (this.slots === undefined) return undefined;
    return new IdleWork(this.slots, () => this.spareCore?.() ?? true, work, signal);
  }

  /** The evaluator of one pass, named `pass` in every event it sends. */
  forPass(pass: string, own?: OutcomeCache, priority: () => number = () => 0): PassEvaluator {
    if (this.shared === undefined) own ??= createCache(this.cacheKind, this.cacheOptions);
    const cache = own ?? this.shared!;
    return {
      scope: (kind) =>
        this.shared !== undefined
          ? this.forPass(pass, undefined, priority)
          : this.forPass(
              pass,
              kind === "configurations" ? undefined : createCache("none", this.cacheOptions),
              priority,
            ),
      withPriority: (next) => this.forPass(pass, own, next),
      test: async (key, signal, label) => {
        const outcome = await this.ask(pass, cache, key, signal, label, priority);
        return outcome !== undefined && isInteresting(outcome);
      },
      ask: (key, signal, label) => this.ask(pass, cache, key, signal, label, priority),
      takeForTimeout: (label) => {
        if (cache.kind === "none") return false;
        this.emit({ type: "timeout-skip", pass, label });
        return true;
      },
      prepare: (key, nextIf) => {
        const oracle = this.oracle;
        if (oracle.prepare === undefined || cache.peek(key) !== undefined) return false;
        const content = key.content();
        if (this.journal?.peek(content) !== undefined) return false;
        // A twin of a candidate under test (Δ2 = ∇1 at granularity 2) will meet that test's outcome
        // in the cache: nothing to prepare.
        if (this.running.some((other) => isTwin(cache.kind, key, other.key))) return false;
        // With a syntax filter, the next test may be skipped, and the one after it run instead.
        const hint: [Uint8Array, NextIf | undefined] = [
          content,
          this.syntax === undefined ? nextIf : undefined,
        ];
        // While tests are held, the test running now is the check, not the one `nextIf` follows.
        if (this.held !== undefined) this.heldHints.push(hint);
        else oracle.prepare(...hint);
        return true;
      },
      spare: () => this.spareCore?.() ?? true,
      commit: (key) => {
        cache.reduced(key);
        const content = key.content();
        const change = this.syntax?.improved(content);
        this.emit({ type: "improved", pass, size: content.length, content });
        if (change !== undefined) this.emit({ type: "syntax-filter", pass, ...change });
      },
      close: () => {
        if (own) this.emit({ type: "cache-stats", stats: own.stats() });
      },
    };
  }

  /** At the end of the run: report the shared cache's and the syntax filter's counters. */
  close(): void {
    if (this.shared) this.emit({ type: "cache-stats", stats: this.shared.stats() });
    if (this.syntax) this.emit({ type: "syntax-stats", ...this.syntax.counters() });
  }

  private async ask(
    pass: string,
    cache: OutcomeCache,
    key: CacheKey,
    signal: AbortSignal,
    label: TestLabel,
    priority: () => number,
  ): Promise<Outcome | undefined> {
    const cached = cache.lookup(key);
    if (cached !== undefined) {
      this.emit({ type: "cache-hit", pass, label, size: key.content().length, outcome: cached });
      return cached;
    }
    const content = key.content();
    const size = content.length;
    const skip = this.syntax?.reject(content, pass, label.kind);
    if (skip !== undefined) {
      if (this.syntax!.skipsMayBeCached) cache.add(key, "not-interesting");
      this.emit({ type: "syntax-skip", pass, label, size, ...skip });
      return "not-interesting";
    }
    // A resumed run: the answer the oracle gave before the interruption, as from a cache. It too waits
    // for the check of the empty input, whose answer the earlier run had before it (the improvements
    // of the passes are held back until then), but it gives the oracle no hint.
    const recalled = this.journal?.peek(content) !== undefined;
    const hold = this.held;
    if (hold !== undefined && !this.heldSequential) {
      // With parallel jobs the check runs beside the first tests: they start at once, and only
      // their answers wait for it, so no pass moves on before the check is answered. If the empty
      // input is interesting, the tests under way are cancelled.
      const answered = this.checkBeside(hold);
      const release = (): void => {
        if (this.held === hold) this.held = undefined;
      };
      answered.then(release, release);
      const beside = new AbortController();
      const stop = (): void => beside.abort(signal.reason);
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
      answered.catch((reason: unknown) => beside.abort(reason));
      try {
        const outcome = await this.test(pass, cache, key, beside.signal, label, priority, recalled);
        await answered;
        return outcome;
      } finally {
        signal.removeEventListener("abort", stop);
      }
    }
    if (hold !== undefined) {
      const answered = hold();
      let pending = true;
      const release = (): void => {
        pending = false;
        if (this.held === hold) this.held = undefined;
      };
      answered.then(release, release);
      // Past the syntax filter, this candidate is tested: the first one right after the check. The
      // hint waits a macrotask, for the check's test to have started (a few promise steps), and is
      // dropped if the check has been answered meanwhile (this test may have begun).
      const nextIf = this.firstHeld ? "not-interesting" : undefined;
      this.firstHeld = false;
      setImmediate(() => {
        if (pending && !recalled) this.oracle.prepare?.(content, nextIf);
      });
      await answered;
      // Cancelled while held (the round or the run stopped): never started, so no events, and the
      // hints that were to follow it are dropped.
      if (signal.aborted) {
        this.heldHints.length = 0;
        return undefined;
      }
    }
    return this.test(pass, cache, key, signal, label, priority, recalled);
  }

  /** With parallel jobs: starts the check (once), in a slot of its own, so that `-j` counts it. */
  private checkBeside(hold: () => Promise<void>): Promise<void> {
    if (this.checking === undefined) {
      const slots = this.slots;
      const taken = slots?.acquire(undefined, () => Number.NEGATIVE_INFINITY) ?? Promise.resolve(false);
      this.checking = taken.then((slot) => {
        const answered = hold();
        if (slot)
          answered.then(
            () => slots!.release(),
            () => slots!.release(),
          );
        return answered;
      });
      // Every held test awaits it; this keeps a rejection from being unhandled before they do.
      this.checking.catch(() => undefined);
    }
    return this.checking;
  }

  /** Runs the test of a candidate past the cache, the syntax filter and the check's hold. */
  private async test(
    pass: string,
    cache: OutcomeCache,
    key: CacheKey,
    signal: AbortSignal,
    label: TestLabel,
    priority: () => number,
    recalled: boolean,
  ): Promise<Outcome | undefined> {
    const content = key.content();
    const size = content.length;
    // The same bytes under test now (at -j 2 and more, a speculative test and the round after the one
    // it was for can ask for the same candidate): that test's outcome answers this one, as the cache
    // would have, had it ended first. Without a cache ("none": the user wants every candidate run)
    // each runs; if the twin is cancelled or fails, this one runs after all.
    const twin =
      cache.kind === "none"
        ? undefined
        : this.running.find((other) => sameBytes(other.key.content(), content));
    if (twin !== undefined) {
      // The twin's outcome is already past the syntax filter's check after the test (verified).
      const outcome = await untilAborted(twin.outcome, signal);
      if (signal.aborted) return undefined;
      if (outcome !== undefined) {
        cache.add(key, outcome);
        this.emit({ type: "cache-hit", pass, label, size, outcome });
        return outcome;
      }
    }
    // (A twin tested at the same time may have taken the last answer recorded for these bytes.)
    const replayed = recalled ? this.journal?.recall(content) : undefined;
    if (replayed !== undefined) {
      // The hints given while tests were held were to follow this test, which does not run.
      this.heldHints.length = 0;
      const skip = this.checkAfter(replayed, content, pass);
      const outcome = skip === undefined ? replayed : "not-interesting";
      cache.add(key, outcome);
      this.emit({ type: "cache-hit", pass, label, size, outcome: replayed });
      if (skip !== undefined) this.emit({ type: "syntax-skip", pass, label, size, ...skip, tested: true });
      return outcome;
    }
    const slots = this.slots;
    for (;;) {
      if (slots !== undefined) {
        if (signal.aborted || !(await slots.acquire(signal, priority))) return undefined;
        // Answered while this one waited for its slot (the same bytes, asked by another search).
        const meanwhile = cache.peek(key);
        if (meanwhile !== undefined) {
          slots.release();
          this.emit({ type: "cache-hit", pass, label, size, outcome: meanwhile });
          return meanwhile;
        }
      }
      // A test of a pass run ahead gives its slot to a test that comes before it (YIELDING_PRIORITY),
      // and runs again when a slot is free.
      const yielded =
        slots !== undefined && priority() >= YIELDING_PRIORITY ? new AbortController() : undefined;
      // All at one mark, so that only tests below it take their slots; once its pass is the one the
      // reduction is in, its priority is below the mark, and it keeps its slot.
      const unregister =
        yielded &&
        slots!.yielding(
          () => (priority() >= YIELDING_PRIORITY ? YIELDING_PRIORITY : Number.NEGATIVE_INFINITY),
          () => yielded.abort(new Error("gave its slot away")),
        );
      const own = yielded ? AbortSignal.any([signal, yielded.signal]) : signal;
      try {
        const answer = await this.run(pass, cache, key, own, label, slots, content);
        if (answer !== GAVE_WAY) return answer;
      } catch (error) {
        if (signal.aborted || yielded?.signal.aborted !== true) throw error;
      } finally {
        unregister?.();
      }
      if (signal.aborted) return undefined;
    }
  }

  /** One run of the test command on a candidate, in the slot taken for it (if any). */
  private async run(
    pass: string,
    cache: OutcomeCache,
    key: CacheKey,
    signal: AbortSignal,
    label: TestLabel,
    slots: Slots | undefined,
    content: Uint8Array,
  ): Promise<Outcome | undefined | typeof GAVE_WAY> {
    const size = content.length;
    // A cancelled test gives its slot back at once: its processes are being killed, and the next
    // test need not wait for them to be gone.
    let holding = slots !== undefined;
    const giveBack = (): void => {
      if (holding) slots!.release();
      holding = false;
    };
    signal.addEventListener("abort", giveBack, { once: true });
    const id = ++this.nextId;
    this.emit({ type: "test-start", pass, id, label, size });
    let outcome: Outcome;
    let settle: (outcome: Outcome | undefined) => void = () => undefined;
    const entry: Running = { key, outcome: new Promise((done) => (settle = done)) };
    this.running.push(entry);
    let shared: Outcome | undefined;
    let skip: SyntaxSkip | undefined;
    const started = performance.now();
    try {
      const answer = this.oracle(content, signal);
      // The hints given while tests were held follow this test (the first to pass), or run beside it
      // (jobs > 1, where no hint has `nextIf`): passed on once it has started.
      for (const hint of this.heldHints.splice(0)) this.oracle.prepare?.(...hint);
      outcome = toOutcome(await answer);
      this.syntax?.observeTest(performance.now() - started);
      if (!signal.aborted) {
        skip = this.checkAfter(outcome, content, pass);
        shared = skip === undefined ? outcome : "not-interesting";
      }
    } catch (error) {
      // Every test-start gets its test-end, also when the oracle fails.
      this.emit({ type: "test-end", pass, id, label, size, outcome: signal.aborted ? "cancelled" : "error" });
      throw error;
    } finally {
      this.running.splice(this.running.indexOf(entry), 1);
      signal.removeEventListener("abort", giveBack);
      giveBack();
      settle(shared);
    }
    if (signal.aborted) {
      // The answer came in after the round no longer needed it (or the slot was given way): report
      // it as cancelled, keep it out.
      this.emit({ type: "test-end", pass, id, label, size, outcome: "cancelled" });
      return GAVE_WAY;
    }
    // The journal keeps the oracle's answer; the cache, what the reduction makes of it.
    cache.add(key, shared!);
    this.journal?.record(content, outcome);
    this.emit({ type: "test-end", pass, id, label, size, outcome });
    if (skip !== undefined) this.emit({ type: "syntax-skip", pass, label, size, ...skip, tested: true });
    return shared!;
  }

  /**
   * The syntax filter's part after a test answered: what the answer teaches it (SyntaxFilter.tested),
   * and its check of a candidate the test found interesting (SyntaxFilter.verify).
   */
  private checkAfter(outcome: Outcome, content: Uint8Array, pass: string): SyntaxSkip | undefined {
    const change = this.syntax?.tested(content, outcome);
    if (change !== undefined) this.emit({ type: "syntax-filter", pass, ...change });
    return isInteresting(outcome) ? this.syntax?.verify(content) : undefined;
  }
}

/** A test under way: its candidate, and the outcome it will give. */
interface Running {
  readonly key: CacheKey;
  readonly outcome: Promise<Outcome | undefined>;
}

/** `outcome`, or undefined as soon as `signal` aborts. */
function untilAborted<T>(outcome: Promise<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((done) => {
    const stop = (): void => done(undefined);
    signal.addEventListener("abort", stop, { once: true });
    void outcome.then((value) => {
      signal.removeEventListener("abort", stop);
      done(value);
    });
  });
}

/** Whether a cache of this kind answers `a` with the outcome it stores for `b`. */
function isTwin(kind: CacheKind, a: CacheKey, b: CacheKey): boolean {
  switch (kind) {
    case "none":
      return false;
    case "config":
      return a.config.equals(b.config);
    case "content":
    case "content-hash":
      return sameBytes(a.content(), b.content());
  }
}
