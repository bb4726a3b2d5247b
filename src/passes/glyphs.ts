import type { TreeFrontEnd } from "../hdd/phases.js";
import type { Tree } from "../tree/tree.js";
import { isBlank, isContinuation, isSoftToken, isWordByte } from "./lexemes.js";
import { hasLexicon } from "./lexicon.js";
import { fullConfiguration } from "../ddmin/configuration.js";
import { findInteresting } from "../ddmin/round.js";
import { reduceList } from "./list.js";
import type { Pass, PassContext } from "./pass.js";
import { inOtherScope, NO_BYTES, rangePass, render } from "./range-pass.js";

/**
 * ddmin over the visible characters of the current input: every character except ASCII whitespace
 * (and a backslash that ends its line, which goes with the line break: see blankRuns) is a unit,
 * and whitespace stays. A character-level polish for grammar-aware runs: after the tree
 * phases, a ddmin over all characters spends most of its tests on the blanks between tokens
 * (measured on zeller-bug-c: 694 tests that removed only whitespace), while a result's size that
 * matters — to a compiler and to the benchmarks, which count non-whitespace characters — is its
 * visible characters. With a front-end, only the characters the grammar does not fix are units
 * (softParts): the keywords, operators and punctuation that the token pass kept stay whole, which
 * halved the pass's tests on zeller-bug-c (120 → 66 with the subset limit of the default polish)
 * and removed as much on every shared case. A token of one character is deleted with the blanks
 * before it on its line (see softParts).
 *
 * With a front-end, a word of a token (a run of letters, digits, `_`, `$`; three characters or more)
 * is first probed: its first character deleted, then its last (closedWords). Where neither can go,
 * the word is kept whole and its other characters are not tried: a key or a name the test reads as
 * it is fails at every character, one test each. Measured on twelve new-user cases
 * (bench/results/2026-12-07-glyph-probe): the pass's tests 170 → 71, the same twelve results (a
 * Kubernetes manifest's keys, read by a checker: 65 → 18). So the result is 1-minimal over the
 * characters outside those words only; a word the test needs from end to end but not in its middle
 * keeps its middle.
 *
 * `names: false` (the pipeline renamed identifiers before this pass): identifiers are not shortened
 * here. The rename pass gave every name the shortest form the test accepts everywhere at once; what
 * it left long, the test needs as it is (a library's function, a field it reads), and deleting its
 * characters one occurrence at a time is a test per character that fails. Measured on a 28 KB
 * Python module (fractions.py with a trigger): the glyph pass took 104 tests instead of 279 for the
 * same result; on the shared C cases 16 tests fewer, the same results.
 */
export function ddminGlyphs(frontEnd?: TreeFrontEnd, { names = true }: { names?: boolean } = {}): Pass {
  const name = "ddmin:glyph";
  if (frontEnd === undefined) return rangePass(name, (current) => charRanges(current, [[0, current.length]]));
  return {
    name,
    async run(context) {
      const { current } = context;
      const parts = softParts(frontEnd, current, names);
      const all = glyphRanges(current, parts, new Set());
      context.emit({ type: "pass", pass: name, units: all.length / 2, size: current.length });
      const probed = await closedWords(context, parts);
      if (probed.kind === "stopped") return probed;
      const ranges = probed.closed.size === 0 ? all : glyphRanges(current, parts, probed.closed);
      return reduceList(context, ranges.length / 2, (config) =>
        render(current, ranges, config, () => NO_BYTES),
      );
    },
  };
}

/** Each visible character of `current` within the given [from, to) spans, as start, end pairs. */
function charRanges(current: Uint8Array, spans: Iterable<readonly [number, number]>): number[] {
  const ranges: number[] = [];
  for (const [from, to] of spans)
    for (let i = from; i < to;) {
      const start = i;
      i = nextCharacter(current, i);
      if (i - start === 1 && (isBlank(current[start]!) || isContinuation(current, start))) continue;
      ranges.push(start, i);
    }
  return ranges;
}

/** The offset after the UTF-8 character that starts at `at`. */
function nextCharacter(current: Uint8Array, at: number): number {
  at++;
  while (at < current.length && (current[at]! & 0xc0) === 0x80) at++;
  return at;
}

/** The units of the glyph pass: every visible character of the parts, but those of closed words. */
function glyphRanges(current: Uint8Array, parts: readonly SoftPart[], closed: ReadonlySet<number>): number[] {
  const ranges: number[] = [];
  for (const [from, to, whole] of parts) {
    if (whole) {
      ranges.push(from, to);
      continue;
    }
    let at = from;
    for (const word of closed.size === 0 ? [] : wordsIn(current, from, to)) {
      if (!closed.has(word[0])) continue;
      ranges.push(...charRanges(current, [[at, word[0]]]));
      at = word[1];
    }
    ranges.push(...charRanges(current, [[at, to]]));
  }
  return ranges;
}

/** Words shorter than this many characters are not probed: the probe would cost what the scan does. */
const PROBED_WORD = 3;

/**
 * The words of a token's text (runs of word bytes, `isWordByte`) of at least PROBED_WORD characters
 * in `current[from, to)`, as [start, end].
 */
function wordsIn(current: Uint8Array, from: number, to: number): [number, number][] {
  const words: [number, number][] = [];
  for (let i = from; i < to;) {
    if (!isWordByte(current[i]!)) {
      i++;
      continue;
    }
    const start = i;
    let characters = 0;
    while (i < to && isWordByte(current[i]!)) {
      i = nextCharacter(current, i);
      characters++;
    }
    if (characters >= PROBED_WORD) words.push([start, Math.min(i, to)]);
  }
  return words;
}

/**
 * The words whose first and last characters both cannot go (by their start offsets): a key or a
 * name the test reads as it is, whose other characters are not tried one by one (two tests instead
 * of one a character). The probes are of `current` as the pass found it, one round at the pass's
 * jobs, nothing committed: where a probe is interesting the word stays open and the scan finds it.
 * Words in tokens only, not in comments and other hidden text.
 */
async function closedWords(
  context: PassContext,
  parts: readonly SoftPart[],
): Promise<{ kind: "done"; closed: Set<number> } | { kind: "stopped"; reason: unknown }> {
  const { current, options, signal } = context;
  const words = parts
    .filter(([, , whole, token]) => token && !whole)
    .flatMap(([from, to]) => wordsIn(current, from, to));
  const probes = words.flatMap(([start, end]): [number, number][] => [
    [start, nextCharacter(current, start)],
    [lastCharacter(current, end), end],
  ]);
  const open = new Set<number>();
  return inOtherScope(context, async (scoped) => {
    await findInteresting(
      probes.length,
      async (p, s) => {
        const bytes = render(current, probes[p]!, [], () => NO_BYTES);
        const key = { config: fullConfiguration(0), content: () => bytes };
        const label = { kind: "complement" as const, index: p, round: 0, granularity: probes.length };
        if (await scoped.test(key, s, label)) open.add(words[p >> 1]![0]);
        return false;
      },
      { jobs: options.jobs, firstWins: false, signal },
    );
    return {
      kind: "done" as const,
      closed: new Set(words.map(([start]) => start).filter((start) => !open.has(start))),
    };
  });
}

/** Where the UTF-8 character that ends at `end` starts. */
function lastCharacter(current: Uint8Array, end: number): number {
  let at = end - 1;
  while (at > 0 && (current[at]! & 0xc0) === 0x80) at--;
  return at;
}

/** A part of softParts: [start, end, whole, token]. */
type SoftPart = [number, number, boolean, boolean];

/**
 * The parts of `current` whose characters the grammar does not fix, in order, as [start, end,
 * whole, token] (token: a token's text, not the hidden text before it): the tokens whose text is
 * not their kind's (identifiers, literals, a macro's body, an error region — not keywords,
 * operators or punctuation, whose shortening can only break the syntax or make another token, which
 * the token pass already tried), and the hidden text between tokens (comments). The tree phases and
 * the token pass took away whole units; what is left to shorten character by character is inside
 * these. A token of one character after blanks on its own line (`i` in `int i`) is `whole`: one
 * unit with those blanks, the very bytes the token pass deletes for it, so that where the token
 * pass's last scan found it needed in this same input its answer comes from the cache instead of a
 * test of the same edit with one more space.
 */
function softParts(frontEnd: TreeFrontEnd, current: Uint8Array, names: boolean): SoftPart[] {
  const { tree } = frontEnd.parse(current);
  const decoder = new TextDecoder();
  const parts: SoftPart[] = [];
  const add = (from: number, to: number, token = false): void => {
    if (to > from) parts.push([from, to, false, token]);
  };
  let end = 0;
  for (const t of tree.tokens) {
    const gap = tree.gapStart(t);
    const start = tree.start(t);
    const soft = isSoftToken(frontEnd, tree, t) && (names || !isName(frontEnd, tree, t));
    if (soft && oneCharacter(decoder.decode(tree.text(t))) && onlySpaces(current, gap, start))
      parts.push([gap, tree.end(t), true, true]);
    else {
      add(gap, start);
      if (soft) add(start, tree.end(t), true);
    }
    end = tree.end(t);
  }
  add(end, current.length);
  return parts;
}

/** Whether token `t` is a name the rename pass changes (none without a built-in language). */
function isName(frontEnd: TreeFrontEnd, tree: Tree, t: number): boolean {
  return hasLexicon(frontEnd) && frontEnd.isName(tree, t);
}

/** Whether `text` is one character (one code point). */
function oneCharacter(text: string): boolean {
  return text.length === 1 || (text.length === 2 && text.codePointAt(0)! > 0xffff);
}

/** Whether `current[from, to)` holds only blanks and no line break (nothing a line-based syntax needs). */
function onlySpaces(current: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const byte = current[i]!;
    if (!isBlank(byte) || byte === 0x0a || byte === 0x0d) return false;
  }
  return true;
}

/**
 * ddmin over the runs of whitespace of the current input: a run left out is deleted whole (or
 * shortened to the one space or line break that must stay: see tightFill), and everything else
 * stays. What `glyph` leaves: blanks whose removal matters to the test (a line
 * break that ends a preprocessor directive) or not at all, each run one unit instead of one per
 * character. A run that holds a line break after other blanks is two units (see blankRuns): the
 * blank lines and trailing blanks before its last line break, and that line break with the
 * indentation after it, so that where lines and their indentation matter (Python, YAML) the blank
 * lines still go.
 *
 * Most whitespace is there for people, so the pass first tries the trivial answers (the rule of
 * Hypothesis's shrinker: try a trivial value first): every run at its shortest at once, then every
 * run whose deletion cannot join two tokens into one (see `looseRuns`) deleted at once, then the
 * same without the runs whose deletion takes a line break away (they may end a directive or a
 * statement; blank lines before a line break that stays are among those deleted). One test
 * each; the first of them that is interesting is kept, and ddmin then reduces the runs that remain
 * as usual — so the result is 1-minimal over runs either way, at a cost of at most three tests more
 * than ddmin alone.
 */
export function ddminBlanks(): Pass {
  return rangePass(
    "ddmin:blank",
    blankRuns,
    (current, ranges) => {
      const loose = looseRuns(current, ranges);
      const withoutBreaks = loose.filter(
        (unit) =>
          blankLines(current, ranges, unit) ||
          !current.subarray(ranges[2 * unit], ranges[2 * unit + 1]).includes(0x0a),
      );
      // First of all, every run at its shortest: what a minifier would do.
      const all = Array.from({ length: ranges.length / 2 }, (_, unit) => unit);
      return [all, loose, withoutBreaks];
    },
    tightFill,
  );
}

const ONE_SPACE = new Uint8Array([0x20]);

/**
 * What a deleted run of whitespace leaves: nothing, or one space where the run is not loose (two
 * words, or two operators, would meet: `int x`, `a - -b`), so that shortening such a run never
 * joins two tokens and is worth a test of its own (a run of line continuations and indentation
 * becomes one space); the input's last run, one line break.
 */
function tightFill(current: Uint8Array, ranges: readonly number[]): (unit: number) => Uint8Array {
  const loose = new Set(looseRuns(current, ranges));
  return (unit) => {
    const [start, end] = [ranges[2 * unit]!, ranges[2 * unit + 1]!];
    // Blank lines before a line break that stays: the line break keeps the tokens apart.
    if (blankLines(current, ranges, unit)) return NO_BYTES;
    // A text file ends with a line break (C's preprocessor lines need theirs): the last run keeps one.
    if (end === current.length && current.subarray(start, end).includes(0x0a)) return ONE_BREAK;
    return loose.has(unit) ? NO_BYTES : ONE_SPACE;
  };
}

const ONE_BREAK = new Uint8Array([0x0a]);

/**
 * The runs of whitespace of `current`, as start, end pairs. A backslash that ends its line (a line
 * continuation in C, Python, shells) is whitespace here: it only ever goes with its line break. A
 * run with blanks before its last line break is split there, into two units that touch: what comes
 * before that line break (blank lines, trailing blanks), which can go whenever the line break
 * stays, and the line break (with its `\r` or continuation) and the indentation after it.
 */
function blankRuns(current: Uint8Array): number[] {
  const ranges: number[] = [];
  const blank = (i: number): boolean => isBlank(current[i]!) || isContinuation(current, i);
  for (let i = 0; i < current.length;) {
    if (!blank(i)) {
      i++;
      continue;
    }
    const start = i;
    while (i < current.length && blank(i)) i++;
    const lastBreak = lastLineBreak(current, start, i);
    if (lastBreak > start) ranges.push(start, lastBreak, lastBreak, i);
    else ranges.push(start, i);
  }
  // A single space that must stay a space (see tightFill) has nothing to give: not a unit.
  const fill = tightFill(current, ranges);
  const units: number[] = [];
  for (let unit = 0; 2 * unit < ranges.length; unit++) {
    const [start, end] = [ranges[2 * unit]!, ranges[2 * unit + 1]!];
    if (end - start === 1 && current[start] === fill(unit)[0]) continue;
    units.push(start, end);
  }
  return units;
}

/**
 * Where the last line break of the run `current[start, end)` begins (at its `\r` of `\r\n`, or at
 * the backslash of a line continuation), or -1 when the run has none.
 */
function lastLineBreak(current: Uint8Array, start: number, end: number): number {
  let at = current.lastIndexOf(0x0a, end - 1);
  if (at < start) return -1;
  if (at - 1 >= start && current[at - 1] === 0x0d) at--;
  if (at - 1 >= start && current[at - 1] === 0x5c) at--;
  return at;
}

/**
 * Whether `unit` is the first part of a split run (blankRuns): the blanks before a line break that
 * is not part of it. A whole run is never followed by a blank.
 */
function blankLines(current: Uint8Array, ranges: readonly number[], unit: number): boolean {
  const end = ranges[2 * unit + 1]!;
  return end < current.length && (isBlank(current[end]!) || isContinuation(current, end));
}

/** Where the whitespace that ends at `at` begins (line continuations included). */
function blanksStart(current: Uint8Array, at: number): number {
  while (at > 0 && (isBlank(current[at - 1]!) || isContinuation(current, at - 1))) at--;
  return at;
}

/** Brackets and separators: in the usual languages they never form a longer token with a neighbour. */
function isSeparator(byte: number): boolean {
  return "()[]{},;".includes(String.fromCharCode(byte));
}

/**
 * The runs (unit numbers) whose deletion cannot join the characters on either side into one token
 * in the usual languages: at the start or end of the input, beside a bracket or separator, or
 * between a word character and punctuation. Runs between two word characters (`int x`) or between
 * two other punctuation characters (`a - -b`, `x / *p`) stay. A guess about the language, used only
 * to order the tests: ddmin still tries every run.
 */
function looseRuns(current: Uint8Array, ranges: readonly number[]): number[] {
  const loose: number[] = [];
  for (let unit = 0; 2 * unit < ranges.length; unit++) {
    if (blankLines(current, ranges, unit)) {
      loose.push(unit); // the line break after it stays between the tokens
      continue;
    }
    // The neighbours of the whole run: the second part of a split run starts after the first.
    const before = current[blanksStart(current, ranges[2 * unit]!) - 1];
    const after = current[ranges[2 * unit + 1]!];
    if (before === undefined || after === undefined || isSeparator(before) || isSeparator(after)) {
      loose.push(unit);
    } else if (isWordByte(before) !== isWordByte(after)) {
      loose.push(unit);
    }
  }
  return loose;
}
