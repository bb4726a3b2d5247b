import type { LexicalFrontEnd } from "./lexicon.js";
import type { Pass } from "./pass.js";
import { applyEdits, RewriteTests, sameShape, sameTokens, type Edit } from "./rewrite.js";

const utf8 = new TextEncoder();
const decoder = new TextDecoder();

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";

/** How many new names one name may be offered when the renamed input does not parse as before. */
const SHAPE_TRIES = 3;

/**
 * The names a renamed identifier may get, shortest first: `a` … `z`, `A` … `Z`, then two characters
 * (a letter, then a letter or digit), three, and so on — identifiers in every built-in language —
 * without those in `taken` or `keywords`. With `caseInsensitive`, a name is taken when it is taken
 * in any case (`taken` and `keywords` are then compared in lower case).
 */
export function* freshNames(
  taken: ReadonlySet<string>,
  keywords: ReadonlySet<string>,
  caseInsensitive: boolean,
): Generator<string, never> {
  const fold = (s: string): string => (caseInsensitive ? s.toLowerCase() : s);
  const used = new Set([...taken].map(fold));
  const reserved = new Set([...keywords].map(fold));
  const rest = LETTERS + DIGITS;
  for (let length = 1; ; length++) {
    // The name's characters as digits of a mixed-radix number: the first from LETTERS, the rest from
    // `rest`, the last varying fastest.
    const digits = new Array<number>(length).fill(0);
    for (;;) {
      const name = digits.map((d, i) => (i === 0 ? LETTERS : rest)[d]).join("");
      if (!used.has(fold(name)) && !reserved.has(fold(name))) yield name;
      let i = length - 1;
      while (i >= 0 && ++digits[i]! === (i === 0 ? LETTERS : rest).length) digits[i--] = 0;
      if (i < 0) break;
    }
  }
}

/** One name of the input: its text and where it stands. */
interface Name {
  readonly text: string;
  /** Its length in bytes. */
  readonly bytes: number;
  /** What every new name for it starts with (Lexicon.prefixed): CSS's `--`, or "". */
  readonly prefix: string;
  readonly spans: [number, number][];
}

/**
 * Consistent renaming (C-Reduce's rename passes, from the tree): the identifier tokens of the
 * current input (the lexicon's identifier kinds), grouped by their text — every token of one text is
 * one name, whatever its kind, which is sound whatever the language's namespaces — each renamed
 * everywhere at once to a short name that no word of the input (identifiers, keywords, words in
 * comments and strings) and no keyword of the language is. Names are taken in order of the bytes
 * they occupy (length × occurrences), the largest first, and the shortest new names go to them; a
 * name no longer than the new name it would get stays.
 *
 * First all names at once, in one test; when that is not interesting, one name a test, each on top
 * of the renamings kept so far. A name the test needs as it is (a library function, a field the
 * test greps for) fails its test and stays. A candidate must parse to the same tree as the input,
 * node for node (where the input has syntax errors: to the same tokens), with no more syntax errors
 * (checked before it is tested): a new name that the grammar reads otherwise is not tested, and the
 * name gets the next one. Identifiers spelled as a keyword are left alone. Text in strings and
 * comments is never changed. Not promised: that the names are as few or as short as they could be
 * (a name that fails is not offered a second name).
 */
export function renameIdentifiers(frontEnd: LexicalFrontEnd): Pass {
  const name = "rename";
  return {
    name,
    async run(context) {
      const found = context.current;
      const { tree } = frontEnd.parse(found);
      const { keywords, caseInsensitive, prefixed } = frontEnd.lexicon;
      const fold = (s: string): string => (caseInsensitive ? s.toLowerCase() : s);
      const byText = new Map<string, Name>();
      // An error region is one opaque token (see the tree-sitter front-end): a name written inside
      // one cannot be renamed there, so it is not renamed anywhere.
      const inErrors = new Set<string>();
      for (const t of tree.tokens) {
        if (tree.kind(t) !== "ERROR") continue;
        for (const word of decoder.decode(tree.text(t)).match(/[\p{L}\p{N}_$]+/gu) ?? []) inErrors.add(word);
      }
      for (const t of tree.tokens) {
        if (!frontEnd.isName(tree, t)) continue;
        const bytes = tree.text(t);
        const text = decoder.decode(bytes);
        // A keyword read as an identifier: inside a syntax error (C's `double` in `y(double, int
        // n)`, a function without its type), or a contextual keyword (`get`, `of`): left alone.
        if (keywords.has(fold(text)) || inErrors.has(text)) continue;
        let entry = byText.get(text);
        if (entry === undefined) {
          const prefix = prefixed !== undefined && text.startsWith(prefixed.prefix) ? prefixed.prefix : "";
          byText.set(text, (entry = { text, bytes: bytes.length, prefix, spans: [] }));
        }
        entry.spans.push([tree.start(t), tree.end(t)]);
      }
      // The largest first; among equals, the first to appear (Map order).
      const names = [...byText.values()].sort((a, b) => b.bytes * b.spans.length - a.bytes * a.spans.length);
      context.emit({ type: "pass", pass: name, units: names.length, size: found.length });
      const taken = new Set(
        Buffer.from(found)
          .toString("latin1")
          .match(/[A-Za-z0-9_]+/g) ?? [],
      );
      const supply = (): Supply => new Supply(freshNames(taken, keywords, caseInsensitive));
      const errors = frontEnd.syntaxErrors(found);
      const render = (renames: ReadonlyMap<Name, string>): Uint8Array => {
        const edits: Edit[] = [];
        for (const [n, to] of renames) {
          const text = utf8.encode(to);
          for (const [start, end] of n.spans) edits.push({ start, end, text });
        }
        return applyEdits(found, edits);
      };
      // Around a syntax error, tree-sitter's recovery weighs the bytes it skips, so a shorter name
      // may regroup the nodes there: with errors, the tokens must be the same kinds, in order.
      const parsesAsBefore = (bytes: Uint8Array): boolean => {
        if (frontEnd.syntaxErrors(bytes) > errors) return false;
        const after = frontEnd.parse(bytes).tree;
        return errors === 0 ? sameShape(after, tree) : sameTokens(after, tree);
      };
      const tests = new RewriteTests(context, names.length + 1);
      return tests.run(async () => {
        const all = new Map<Name, string>();
        const names1 = supply();
        for (const n of names)
          if (n.prefix.length + names1.peek().length < n.bytes) all.set(n, n.prefix + names1.take());
        if (all.size === 0) return;
        // With one name, that is the first candidate below.
        if (all.size > 1) {
          const everything = render(all);
          if (parsesAsBefore(everything) && (await tests.test(everything))) return;
        }
        const kept = new Map<Name, string>();
        const names2 = supply();
        for (const n of names) {
          for (
            let attempt = 0;
            attempt < SHAPE_TRIES && n.prefix.length + names2.peek().length < n.bytes;
            attempt++
          ) {
            const bytes = render(new Map([...kept, [n, n.prefix + names2.peek()]]));
            if (!parsesAsBefore(bytes)) {
              names2.take(); // not a name the grammar reads here as it reads the old one
              continue;
            }
            if (await tests.test(bytes)) kept.set(n, n.prefix + names2.take());
            break;
          }
        }
      });
    },
  };
}

/** The fresh names, with a look at the next before it is taken. */
class Supply {
  private next: string;
  constructor(private readonly names: Generator<string, never>) {
    this.next = names.next().value;
  }
  peek(): string {
    return this.next;
  }
  take(): string {
    const name = this.next;
    this.next = this.names.next().value;
    return name;
  }
}
