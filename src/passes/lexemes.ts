import type { TreeFrontEnd } from "../hdd/phases.js";
import type { Tree } from "../tree/tree.js";
import { hasLexicon } from "./lexicon.js";

const decoder = new TextDecoder();

/** ASCII whitespace. */
export function isBlank(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/** A backslash that ends its line: a line continuation, which goes with the line break. */
export function isContinuation(bytes: Uint8Array, at: number): boolean {
  if (bytes[at] !== 0x5c) return false;
  const next = bytes[at + 1];
  return next === 0x0a || (next === 0x0d && bytes[at + 2] === 0x0a);
}

/** The first offset at or after `from` (and before `to`) that is not whitespace or a line continuation. */
export function skipBlanks(bytes: Uint8Array, from: number, to: number): number {
  while (from < to && (isBlank(bytes[from]!) || isContinuation(bytes, from)))
    from += bytes[from] === 0x5c ? 2 : 1;
  return from;
}

/** Letters, digits, `_`, `$` and every byte of a multi-byte UTF-8 character: what words are made of. */
export function isWordByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x5f ||
    byte === 0x24 ||
    byte >= 0x80
  );
}

/**
 * Whether token `t` holds text the grammar does not fix: an identifier, a literal, a macro's body,
 * an error region — not a keyword, operator or punctuation. A literal token's kind is its text
 * (tree-sitter), or its text quoted (ANTLR's 'x'); a keyword may also stand as a named token (C's
 * `int` is a primitive_type), which `isLiteral` knows.
 */
export function isSoftToken(frontEnd: TreeFrontEnd, tree: Tree, t: number): boolean {
  const kind = tree.kind(t);
  const text = decoder.decode(tree.text(t));
  return kind !== text && kind !== `'${text}'` && frontEnd.isLiteral?.(text) !== true;
}

const QUOTES = new Set([0x22, 0x27, 0x60]);

/**
 * The lexemes of token `t` worth deleting one by one, as [gapStart, end) pairs of input offsets,
 * or none where the token is one lexeme (or a number). A lexeme is a run of word bytes or one
 * other visible character, with the whitespace and line continuations before it inside the token
 * (deleted with it, as the token pass deletes a token with the hidden text before it); a quote
 * that opens and closes the token stays, and so does the whitespace after the last lexeme.
 *
 * Grammars leave some long texts as one token — C's macro body (`preproc_arg`), a string's or a
 * template's content, a regular expression, HTML's text — and the token pass, deleting whole tokens,
 * could only keep or drop them, leaving the glyph pass to wear them down character by character (on
 * cvise-blocksort-c, 68 tests for a macro body of 152 visible characters of which one word stays).
 */
export function tokenLexemes(frontEnd: TreeFrontEnd, tree: Tree, t: number): number[] {
  if (!isSoftToken(frontEnd, tree, t)) return [];
  if (hasLexicon(frontEnd) && frontEnd.lexicon.numberKinds.has(tree.kind(t))) return [];
  const input = tree.input;
  let from = tree.start(t);
  let to = tree.end(t);
  if (to - from >= 2 && QUOTES.has(input[from]!) && input[to - 1] === input[from])
    [from, to] = [from + 1, to - 1];
  const pairs: number[] = [];
  for (let i = from; i < to;) {
    const gapStart = i;
    i = skipBlanks(input, i, to);
    if (i >= to) break;
    const start = i;
    if (isWordByte(input[i]!)) while (i < to && isWordByte(input[i]!)) i++;
    else i++;
    // The trailing whitespace after the last lexeme is not one: it stays.
    pairs.push(gapStart === from ? start : gapStart, i);
  }
  return pairs.length >= 4 ? pairs : [];
}
