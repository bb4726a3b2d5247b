import { fullConfiguration } from "../ddmin/configuration.js";
import type { Tree } from "../tree/tree.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import type { PassContext, PassOutcome } from "./pass.js";

/** The bytes `start` to `end` of the input, replaced by `text`. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: Uint8Array;
}

/** `input` with `edits` applied (disjoint spans, in any order). */
export function applyEdits(input: Uint8Array, edits: readonly Edit[]): Uint8Array {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let length = input.length;
  for (const e of sorted) length += e.text.length - (e.end - e.start);
  const out = new Uint8Array(length);
  let at = 0;
  let from = 0;
  for (const e of sorted) {
    out.set(input.subarray(from, e.start), at);
    at += e.start - from;
    out.set(e.text, at);
    at += e.text.length;
    from = e.end;
  }
  out.set(input.subarray(from), at);
  return out;
}

/** Whether the two trees have the same nodes: kinds and parents, in document order (not text). */
export function sameShape(a: Tree, b: Tree): boolean {
  if (a.size !== b.size) return false;
  for (let id = 0; id < a.size; id++) {
    if (a.kind(id) !== b.kind(id) || a.parent(id) !== b.parent(id)) return false;
  }
  return true;
}

/** Whether the two trees have the same tokens, by kind, in order. */
export function sameTokens(a: Tree, b: Tree): boolean {
  if (a.tokens.length !== b.tokens.length) return false;
  for (let i = 0; i < a.tokens.length; i++) if (a.kind(a.tokens[i]!) !== b.kind(b.tokens[i]!)) return false;
  return true;
}

/**
 * Asks the evaluator about the candidates of a rewriting pass (rename, literal), one at a time: the
 * first candidate of a pass is its all-at-once try, the others one unit each, and every interesting
 * one is committed at once, since the next candidate builds on it. `total` is how many candidates
 * the pass may make (for the test labels).
 */
export class RewriteTests {
  private readonly scoped: PassEvaluator;
  private index = 0;

  constructor(
    private readonly context: PassContext,
    private readonly total: number,
  ) {
    this.scoped = context.evaluator.scope("other");
  }

  /** Tests `bytes`; commits it when it is interesting. */
  async test(bytes: Uint8Array): Promise<boolean> {
    const key = { config: fullConfiguration(0), content: () => bytes };
    const label = { kind: "rewrite" as const, index: this.index, round: 0, granularity: this.total };
    this.index = Math.min(this.index + 1, this.total - 1);
    if (!(await this.scoped.test(key, this.context.signal, label))) return false;
    this.scoped.commit(key);
    return true;
  }

  /**
   * Runs `body` with this tester and closes the evaluators after it: a stop (the run's signal) is a
   * `stopped` outcome, any other failure is thrown.
   */
  async run(body: () => Promise<void>): Promise<PassOutcome> {
    const { evaluator, signal } = this.context;
    try {
      await body();
      return { kind: "done" };
    } catch (error) {
      if (signal.aborted) return { kind: "stopped", reason: signal.reason };
      throw error;
    } finally {
      this.scoped.close();
      evaluator.close();
    }
  }
}
