import type { Tree } from "../tree/tree.js";
import type { Lexicon, LexicalFrontEnd } from "./lexicon.js";
import type { Pass } from "./pass.js";
import { applyEdits, RewriteTests, type Edit } from "./rewrite.js";

const utf8 = new TextEncoder();
const decoder = new TextDecoder();
const QUOTES = new Set([0x22, 0x27, 0x60]); // " ' `
const BACKSLASH = 0x5c;
/** How every number literal of the built-in languages starts (not YAML's `.inf`, which stays). */
const NUMBER = /^\.?[0-9]/;

/** One literal of the input: the bytes to rewrite and what they may become, the smallest first. */
interface Literal {
  readonly start: number;
  readonly end: number;
  readonly candidates: readonly Uint8Array[];
}

/**
 * Literal shrinking (C-Reduce's literal passes, from the tree): every number literal toward `0`,
 * then `1` (and `0.0` for a float that neither will do), every string literal toward empty content,
 * its quotes kept (`"abc"` → `""`), then toward its first character alone. The kinds of literals
 * are the lexicon's; a number that is a node rather than a token (CSS's `10px`) has its first token
 * rewritten (`0px`). Character literals and strings whose delimiters depend on their content (raw
 * strings, heredocs) are not literals here.
 *
 * First every literal at once, in one test; when that is not interesting, one literal at a time,
 * those with the most bytes to lose first, each trying its candidates in order until one is
 * interesting, on top of what was kept so far. A candidate with more syntax errors than the input is
 * not tested. A literal already at its smallest (`0`, `""`) is left alone. Not promised: that a
 * literal is as small as the test allows (only these few values are tried).
 */
export function shrinkLiterals(frontEnd: LexicalFrontEnd): Pass {
  const name = "literal";
  return {
    name,
    async run(context) {
      const found = context.current;
      const { tree } = frontEnd.parse(found);
      const literals = findLiterals(tree, frontEnd.lexicon);
      context.emit({ type: "pass", pass: name, units: literals.length, size: found.length });
      const errors = frontEnd.syntaxErrors(found);
      const render = (edits: readonly Edit[]): Uint8Array | undefined => {
        const bytes = applyEdits(found, edits);
        return frontEnd.syntaxErrors(bytes) <= errors ? bytes : undefined;
      };
      const edit = (l: Literal, i: number): Edit => ({ start: l.start, end: l.end, text: l.candidates[i]! });
      const tests = new RewriteTests(context, 1 + literals.reduce((n, l) => n + l.candidates.length, 0));
      return tests.run(async () => {
        if (literals.length === 0) return;
        // With one literal, that is the first candidate below.
        if (literals.length > 1) {
          const everything = render(literals.map((l) => edit(l, 0)));
          if (everything !== undefined && (await tests.test(everything))) return;
        }
        // The most bytes to lose first; among equals, the first in the input (a stable sort).
        const order = [...literals].sort(
          (a, b) => b.end - b.start - b.candidates[0]!.length - (a.end - a.start - a.candidates[0]!.length),
        );
        const kept: Edit[] = [];
        for (const literal of order) {
          for (let i = 0; i < literal.candidates.length; i++) {
            const bytes = render([...kept, edit(literal, i)]);
            if (bytes === undefined || !(await tests.test(bytes))) continue;
            kept.push(edit(literal, i));
            break;
          }
        }
      });
    },
  };
}

/** The literals of `tree` that can be smaller, outermost only (a number inside a string stays). */
function findLiterals(tree: Tree, lexicon: Lexicon): Literal[] {
  const literals: Literal[] = [];
  const add = (start: number, end: number, candidates: Uint8Array[]): void => {
    if (candidates.length > 0) literals.push({ start, end, candidates });
  };
  const stack = tree.size === 0 ? [] : [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const kind = tree.kind(id);
    if (lexicon.numberKinds.has(kind)) {
      let first = id;
      while (!tree.isToken(first)) first = tree.children(first)[0]!;
      const text = decoder.decode(tree.text(first));
      // A keyword spelled as the kind's name is no number (TypeScript's type `number`).
      if (NUMBER.test(text)) add(tree.start(first), tree.end(first), numberCandidates(text));
      continue;
    }
    if (lexicon.stringKinds.has(kind)) {
      const content = stringContent(tree, id);
      if (content !== undefined) {
        const [start, end] = content;
        add(start, end, stringCandidates(tree.input.subarray(start, end)));
      }
      continue;
    }
    const children = tree.children(id);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return literals;
}

/**
 * `0`, `1` (and `0.0` for a float), those no longer than `text` and before it in that order: `1`
 * becomes `0`, and `0` stays.
 */
function numberCandidates(text: string): Uint8Array[] {
  const values = ["0", "1"];
  if (/^[0-9]*\.[0-9]|^[0-9]+[eE]/.test(text)) values.push("0.0");
  const at = values.indexOf(text);
  return (at < 0 ? values : values.slice(0, at))
    .filter((v) => v.length <= text.length)
    .map((v) => utf8.encode(v));
}

/**
 * Where a string literal's content is: between its first and last token, or, for a literal that is
 * one token, between its first and last character when they are the same quote.
 */
function stringContent(tree: Tree, id: number): [number, number] | undefined {
  if (tree.isToken(id)) {
    const [start, end] = [tree.start(id), tree.end(id)];
    const [open, close] = [tree.input[start]!, tree.input[end - 1]!];
    return end - start >= 2 && open === close && QUOTES.has(open) ? [start + 1, end - 1] : undefined;
  }
  let first = id;
  while (!tree.isToken(first)) first = tree.children(first)[0]!;
  const last = tree.lastDescendant(id);
  return first === last ? undefined : [tree.end(first), tree.start(last)];
}

/** Nothing, then the first character (unless it starts an escape), for a content that has more. */
function stringCandidates(content: Uint8Array): Uint8Array[] {
  if (content.length === 0) return [];
  const out = [new Uint8Array(0)];
  const [first] = decoder.decode(content);
  const bytes = utf8.encode(first);
  const whole = bytes.every((b, i) => content[i] === b); // not a piece of a broken UTF-8 sequence
  if (bytes.length < content.length && whole && content[0] !== BACKSLASH) out.push(bytes);
  return out;
}
