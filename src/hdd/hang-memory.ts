import type { CacheKey } from "../cache/index.js";
import { isInteresting } from "../outcome.js";
import type { PassEvaluator } from "../reduce/evaluator.js";
import { covers, type TokenRanges } from "../tree/token-ranges.js";
import type { Tree } from "../tree/tree.js";

/** How many timed-out candidates a tree pass remembers: the latest, those that removed least kept. */
export const HANG_MEMORY_SIZE = 128;

/**
 * The candidates of one tree pass whose test timed out, as the input's tokens each removed, across
 * the pass's levels, searches and iterations. A candidate that removes every token one of them
 * removed is taken for a timeout without a test: a loop left without its exit still loops when more
 * is removed. The ddmin rule of passes/pass.ts does the same within one search (one level's ddmin);
 * this one also holds between them, where most of a tree pass's timeouts came from: hoisting starts
 * its scan over after each hoist and meets the same hanging candidates again, and so does each
 * iteration of a starred phase, and a level's ddmin meets a level above's hang when it removes all
 * of a node's children. A candidate that turns out interesting lifts the rule for every remembered
 * one whose tokens it removed too. Not from the papers; a heuristic, like the ddmin rule: a result
 * is 1-minimal with respect to the answers where a candidate taken for a timeout counts as not
 * interesting. The memory lives as long as the pass's tree (the next pass parses again).
 *
 * Unless the candidate also removes a whole loop that held part of what the timed-out one removed
 * and kept part of it (`loops`, from the tree's kinds: see loopsAround): that loop is where the
 * exit went, and without it nothing is left to hang there. Before, a function that looped once its
 * loop's exit was gone stayed in results after its last call went, since removing it removed that
 * exit too (bench/results/2026-12-03-hang-loops).
 */
export class HangMemory {
  /** What the remembered timed-out candidates removed, and their loops. */
  readonly #hung: Hung[] = [];
  readonly #removes = new WeakMap<CacheKey, () => TokenRanges>();

  /** `loops`: the loops around what a timed-out candidate removed (none without a tree). */
  constructor(private readonly loops: (removed: TokenRanges) => readonly TokenRanges[] = () => []) {}

  /** Tells the memory what the candidate `key` removes (asked only when the memory needs it). */
  describe(key: CacheKey, removes: () => TokenRanges): void {
    let ranges: TokenRanges | undefined;
    this.#removes.set(key, () => (ranges ??= removes()));
  }

  get size(): number {
    return this.#hung.length;
  }

  /**
   * Whether a remembered timed-out candidate removed nothing that `removed` keeps, and `removed`
   * keeps a token of each of its loops.
   */
  predicts(removed: TokenRanges): boolean {
    return this.#hung.some(
      (hung) => covers(removed, hung.removed) && !hung.loops.some((loop) => covers(removed, loop)),
    );
  }

  /** A candidate that removed `removed` timed out. */
  record(removed: TokenRanges): void {
    if (this.predicts(removed)) return; // a remembered one already says as much
    // One that removed more says less than this one: this one takes its place.
    for (let i = this.#hung.length - 1; i >= 0; i--)
      if (covers(this.#hung[i]!.removed, removed)) this.#hung.splice(i, 1);
    this.#hung.push({ removed, loops: this.loops(removed) });
    if (this.#hung.length > HANG_MEMORY_SIZE) this.#hung.shift();
  }

  /** A candidate that removed `removed` is interesting: the rule was wrong for those it covers. */
  disprove(removed: TokenRanges): void {
    for (let i = this.#hung.length - 1; i >= 0; i--)
      if (covers(removed, this.#hung[i]!.removed)) this.#hung.splice(i, 1);
  }

  /**
   * `evaluator`, with the rule: a described candidate the memory predicts to hang is taken for a
   * timeout (PassEvaluator.takeForTimeout: not with `--cache none`) and not prepared; a described
   * candidate that times out is remembered; one committed disproves what it covers.
   */
  guard(evaluator: PassEvaluator): PassEvaluator {
    const removedOf = (key: CacheKey): TokenRanges | undefined => this.#removes.get(key)?.();
    const predicted = (key: CacheKey): boolean => {
      if (this.#hung.length === 0) return false;
      const removed = removedOf(key);
      return removed !== undefined && this.predicts(removed);
    };
    const ask: PassEvaluator["ask"] = async (key, signal, label) => {
      if (predicted(key) && evaluator.takeForTimeout(label)) return "timeout";
      const outcome = await evaluator.ask(key, signal, label);
      if (outcome === "timeout") {
        const removed = removedOf(key);
        if (removed !== undefined) this.record(removed);
      }
      return outcome;
    };
    return {
      ask,
      test: async (key, signal, label) => {
        const outcome = await ask(key, signal, label);
        return outcome !== undefined && isInteresting(outcome);
      },
      takeForTimeout: (label) => evaluator.takeForTimeout(label),
      spare: () => evaluator.spare(),
      prepare: (key, nextIf) => !predicted(key) && evaluator.prepare(key, nextIf),
      commit: (key) => {
        // Nothing to disprove in an empty memory: the tokens are not worked out for it.
        const removed = this.#hung.length === 0 ? undefined : removedOf(key);
        if (removed !== undefined) this.disprove(removed);
        evaluator.commit(key);
      },
      close: () => evaluator.close(),
      scope: (kind) => this.guard(evaluator.scope(kind)),
      withPriority: (priority) => this.guard(evaluator.withPriority(priority)),
    };
  }
}

/** A remembered timed-out candidate: the tokens it removed, and the loops around them (HangMemory). */
interface Hung {
  readonly removed: TokenRanges;
  readonly loops: readonly TokenRanges[];
}

/**
 * The words of a kind's name that make it a loop, in the grammars' spellings (`for_in_statement`,
 * `whileStatement`, `iterationStatement`).
 */
const LOOP_WORDS = new Set(["for", "foreach", "while", "loop", "iteration", "until", "repeat"]);

/**
 * Whether nodes of `kind` are loops, by the words of its name (snake_case or camelCase): a `for`,
 * `while`, `loop`, … word, or a `do` statement, in a name of two words or more (one is a keyword's
 * token). Not a loop's parts (`do_group`, the body of a shell loop): without its body a loop still
 * loops.
 */
export function isLoopKind(kind: string): boolean {
  const words = kind
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  // One word is a keyword's token (`for`), not a loop.
  if (words.length < 2) return false;
  if (words.some((word) => LOOP_WORDS.has(word))) return !words.includes("body") && !words.includes("group");
  return words[0] === "do" && (words[1] === "statement" || words[1] === "while" || words[1] === "expression");
}

/**
 * The loops of `tree` around what `removed` removes and that it does not remove whole, each as its
 * tokens. Such a loop holds a token `removed` keeps and one it removes, so it is an ancestor of the
 * first or the last token of one of `removed`'s ranges: only those ancestors are looked at.
 */
export function loopsAround(tree: Tree, removed: TokenRanges): TokenRanges[] {
  const loops = new Map<number, TokenRanges>();
  const tokens = tree.tokens;
  for (let i = 0; i < removed.length; i += 2) {
    for (const index of [removed[i]!, removed[i + 1]! - 1]) {
      for (let id = tree.parent(tokens[index]!); id > 0; id = tree.parent(id)) {
        if (loops.has(id) || !isLoopKind(tree.kind(id))) continue;
        const span = Int32Array.of(tree.tokenIndex(id), tree.tokenIndex(tree.lastDescendant(id) + 1));
        if (span[1]! > span[0]! && !covers(removed, span)) loops.set(id, span);
      }
    }
  }
  return [...loops.values()];
}
