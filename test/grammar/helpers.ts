/** Shared bits of the grammar tests: paths, a reference renderer and tree walks. */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RawNode } from "../../src/tree/raw.js";
import type { AntlrGrammar } from "../../src/grammar/antlr/index.js";

export const REPO = resolve(import.meta.dirname, "../../..");
export const FIXTURES = join(REPO, "test/fixtures/grammar");
export const SHARED = resolve(REPO, "../shared");
export const sharedPresent = existsSync(join(SHARED, "grammars"));

export const sharedGrammar = {
  json: [join(SHARED, "grammars/json/JSON.g4")],
  c: [join(SHARED, "grammars/c/C.g4")],
  javascript: [
    join(SHARED, "grammars/javascript/JavaScriptLexer.g4"),
    join(SHARED, "grammars/javascript/JavaScriptParser.g4"),
  ],
};

export function sharedInput(name: string): Buffer {
  return readFileSync(join(SHARED, "bench/cases", name));
}

/** Token leaves in order. */
export function tokens(root: RawNode | null): RawNode[] {
  const out: RawNode[] = [];
  const stack: RawNode[] = root ? [root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.token) out.push(node);
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

export function* nodes(root: RawNode | null): Generator<RawNode> {
  const stack: RawNode[] = root ? [root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/**
 * The reference renderer of an untouched tree: every token's bytes in order, with the original bytes
 * between tokens (and before the first, after the last). Also checks that tokens are in order and
 * do not overlap, and that every gap lexes to hidden-channel tokens only (so no token was dropped).
 */
export function renderUntouched(grammar: AntlrGrammar, input: Uint8Array, root: RawNode | null): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  const bytes = Buffer.from(input);
  const checkGap = (gap: Buffer): void => {
    if (gap.length === 0) return;
    const { tokens: lexed } = grammar.tokenize(gap.toString("utf8"));
    const visible = lexed.filter((t) => t.channel === 0);
    if (visible.length > 0) throw new Error(`gap ${JSON.stringify(gap.toString())} holds a visible token`);
  };
  for (const t of tokens(root)) {
    if (t.start < at || t.end < t.start)
      throw new Error(`token ${t.kind} at ${t.start} overlaps or is reversed`);
    checkGap(bytes.subarray(at, t.start));
    parts.push(bytes.subarray(at, t.start), bytes.subarray(t.start, t.end));
    at = t.end;
  }
  checkGap(bytes.subarray(at));
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}

/** The input's text of a node. */
export function textOf(input: Uint8Array, node: RawNode): string {
  return Buffer.from(input).subarray(node.start, node.end).toString("utf8");
}

/**
 * A reference renderer with removals: the tokens outside removed nodes, in order; two kept tokens
 * that were neighbours keep the original bytes between them, others are joined directly, with one
 * space where the glue check says they would lex as something else.
 */
export function renderWithout(
  grammar: AntlrGrammar,
  input: Uint8Array,
  root: RawNode | null,
  removed: ReadonlySet<RawNode>,
): { text: string; kept: string[] } {
  const bytes = Buffer.from(input);
  const all = tokens(root);
  const keptIndex: number[] = [];
  const skip = new Set<RawNode>();
  const stack: RawNode[] = root ? [root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (removed.has(node)) {
      for (const t of tokens(node)) skip.add(t);
      continue;
    }
    stack.push(...node.children);
  }
  all.forEach((t, i) => {
    if (!skip.has(t)) keptIndex.push(i);
  });
  let text = "";
  const kept: string[] = [];
  keptIndex.forEach((i, k) => {
    const t = all[i]!;
    const tokenText = bytes.subarray(t.start, t.end).toString("utf8");
    if (k > 0) {
      const previous = keptIndex[k - 1]!;
      if (previous === i - 1) text += bytes.subarray(all[previous]!.end, t.start).toString("utf8");
      else if (grammar.glue(kept[kept.length - 1]!, tokenText)) text += " ";
    }
    text += tokenText;
    kept.push(tokenText);
  });
  return { text, kept };
}
