import type { CacheKey } from "../cache/index.js";
import type { PassEvaluator } from "./evaluator.js";
import type { EventListener } from "./events.js";

/**
 * A search run ahead of the one the reduction is in (a tree level's stage, hdd/stages.ts, or a whole
 * pass, run-passes.ts): `depth` 0 is the main search, higher ones wait behind it.
 */
export interface Speculative {
  depth: number;
  /** It committed an improvement: the searches after it started from an input it has changed. */
  committed: boolean;
  /** While speculative: the improvements it found and the events it sent, in order, for later. */
  readonly held: (() => void)[];
  /** Resolves when it becomes the main search (or is aborted). */
  readonly promoted: Promise<void>;
}

/**
 * The evaluator of a speculative search: while it is speculative, an improvement is held (and
 * reported to `onCommit`, the first time), and its later tests wait until it is the main search:
 * its next candidates depend on that improvement, as do the syntax filter's allowance and the
 * cache's eviction.
 */
export function heldEvaluator(base: PassEvaluator, search: Speculative, onCommit: () => void): PassEvaluator {
  const ready = async (signal: AbortSignal): Promise<void> => {
    if (search.depth === 0 || !search.committed) return;
    await Promise.race([
      search.promoted,
      new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
    ]);
    signal.throwIfAborted();
  };
  return {
    test: async (key, signal, label) => {
      await ready(signal);
      return base.test(key, signal, label);
    },
    ask: async (key, signal, label) => {
      await ready(signal);
      return base.ask(key, signal, label);
    },
    takeForTimeout: (label) => base.takeForTimeout(label),
    spare: () => base.spare(),
    prepare: (key, nextIf) => base.prepare(key, nextIf),
    commit: (key: CacheKey) => {
      const first = !search.committed;
      search.committed = true;
      if (first) onCommit();
      if (search.depth === 0) base.commit(key);
      else search.held.push(() => base.commit(key));
    },
    close: () => base.close(),
    scope: (kind) => heldEvaluator(base.scope(kind), search, onCommit),
    withPriority: (priority) => heldEvaluator(base.withPriority(priority), search, onCommit),
  };
}

/** A speculative search as its runner keeps it: how to abort it, and how to make it the main one. */
export interface SpeculativeRun extends Speculative {
  readonly controller: AbortController;
  readonly promote: () => void;
}

/** The state of a search that starts at `depth`: nothing committed, nothing held. */
export function speculativeRun(depth: number): SpeculativeRun {
  let promote = (): void => undefined;
  const promoted = new Promise<void>((resolve) => (promote = resolve));
  return { controller: new AbortController(), depth, committed: false, held: [], promoted, promote };
}

/**
 * Aborts the searches of `chain` after `index`: they started from an input that an earlier one has
 * changed. A held one is let go, to see its abort.
 */
export function abortAfter(chain: readonly SpeculativeRun[], index: number, reason: string): void {
  for (const later of chain.slice(index + 1)) {
    later.controller.abort(new Error(reason));
    later.promote();
  }
}

/** `emit` for `search`'s events: passed on while it is the main search, held until then otherwise. */
export function heldEmit(search: Speculative, emit: EventListener): EventListener {
  return (event) => {
    if (search.depth === 0) emit(event);
    else search.held.push(() => emit(event));
  };
}

/**
 * The main search, the first of `chain` before it was taken off, ended unchanged: the next search
 * (now the first) becomes the main one, what it held is sent, and each search moves up one depth.
 */
export function promoteNext(chain: readonly SpeculativeRun[]): void {
  for (const r of chain) r.depth--;
  const next = chain[0]!;
  for (const held of next.held.splice(0)) held();
  next.promote();
}
