/**
 * Minimal replacements for a tree-sitter grammar: the shortest text each rule derives (a shortest
 * derivation over `grammar.json`), with a small generator of shortest matches for `PATTERN` rules.
 * Whatever cannot be worked out for sure is `undefined`; the front-end then keeps the node's own
 * text as its replacement, which is always valid.
 */
import type { Rule, TsGrammar } from "./grammar-json.js";

/** How many rounds the fixed point may take; each round lowers at least one rule. */
const MAX_ROUNDS = 200;

/**
 * The shortest text of every rule of `grammar`: a fixed point of "a rule is as short as its
 * expression", starting from nothing known. `externals` gives the text of external-scanner tokens
 * (tokens it does not name are unknown); `fixed`, rules whose text is given rather than derived.
 */
export function shortestRuleTexts(
  grammar: TsGrammar,
  externals: ReadonlyMap<string, string>,
  wordCharacters?: RegExp,
  fixed: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  // Rules whose text is given (`fixed`) keep it; the others are derived from them.
  const known = new Map<string, string>(fixed);
  const symbol = (name: string): string | undefined => known.get(name) ?? externals.get(name);
  const join = (left: string, right: string): string => joinTexts(left, right, wordCharacters);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let changed = false;
    for (const [name, rule] of grammar.rules) {
      if (fixed.has(name)) continue;
      const text = shortestOf(rule, symbol, join, false);
      const old = known.get(name);
      if (text !== undefined && (old === undefined || shorter(text, old))) {
        known.set(name, text);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return known;
}

/** The shortest text of one expression, given the shortest texts of symbols known so far. */
function shortestOf(
  rule: Rule,
  symbol: (name: string) => string | undefined,
  join: (left: string, right: string) => string,
  inToken: boolean,
): string | undefined {
  switch (rule.type) {
    case "BLANK":
    case "REPEAT":
      return "";
    case "STRING":
      return rule.value;
    case "PATTERN":
      return shortestMatch(rule.value, rule.flags);
    case "SYMBOL":
      return symbol(rule.name);
    case "SEQ": {
      let text = "";
      for (const member of rule.members) {
        const part = shortestOf(member, symbol, join, inToken);
        if (part === undefined) return undefined;
        text = inToken ? text + part : join(text, part);
      }
      return text;
    }
    case "CHOICE": {
      let best: string | undefined;
      for (const member of rule.members) {
        const text = shortestOf(member, symbol, join, inToken);
        if (text !== undefined && (best === undefined || shorter(text, best))) best = text;
      }
      return best;
    }
    case "TOKEN":
    case "IMMEDIATE_TOKEN":
      return shortestOf(rule.content, symbol, join, true);
    case "REPEAT1":
    case "FIELD":
    case "ALIAS":
    case "PREC":
    case "PREC_LEFT":
    case "PREC_RIGHT":
    case "PREC_DYNAMIC":
    case "RESERVED":
      return shortestOf(rule.content, symbol, join, inToken);
  }
}

/**
 * Whether `a` is a better minimal text than `b`: shorter, or as long with more letters and digits.
 * Of `{` and `a` (both a Bash word), `a` is an argument anywhere; `{` opens a group.
 */
function shorter(a: string, b: string): boolean {
  if (a.length !== b.length) return a.length < b.length;
  const plain = (t: string): number => t.replace(/[^A-Za-z0-9]/g, "").length;
  return plain(a) > plain(b);
}

const WORD = /[\p{L}\p{N}_$]/u;
const OPERATOR = /[!%&*+\-./:<=>?^|~#@]/;

/**
 * Two separate tokens written one after the other: a space between them where they could lex as
 * one (`int` `x`, `+` `+`, `1` `.5`), nothing otherwise.
 */
export function joinTexts(left: string, right: string, wordCharacters?: RegExp): string {
  if (left === "" || right === "") return left + right;
  return needsSpace(left, right, wordCharacters) ? `${left} ${right}` : left + right;
}

/**
 * Whether `left` and `right` written with nothing between them might lex as something else. With
 * `wordCharacters` (a shell's: everything but its metacharacters), two characters of it meeting is
 * the only case; otherwise words meeting words, operators meeting operators, a digit meeting a dot.
 */
export function needsSpace(left: string, right: string, wordCharacters?: RegExp): boolean {
  const a = left[left.length - 1]!;
  const b = right[0]!;
  if (wordCharacters !== undefined) return wordCharacters.test(a) && wordCharacters.test(b);
  if (WORD.test(a) && WORD.test(b)) return true;
  if (OPERATOR.test(a) && OPERATOR.test(b)) return true;
  return (/[0-9]/.test(a) && b === ".") || (a === "." && /[0-9]/.test(b));
}

/** Characters tried, in this order, for a character class or `.`: the plainest first. */
const CANDIDATES = ["a", "0", "_", "x", "A", " ", "-", ".", "+", "!", '"', "'", "/", "\\", "#", "$", "@"];

/**
 * A shortest string that the regular expression `pattern` (tree-sitter's syntax, close to
 * JavaScript's) matches as a whole, or undefined when the pattern uses something this small
 * generator does not know. Every answer is checked against the pattern itself with RegExp.
 */
export function shortestMatch(pattern: string, flags = ""): string | undefined {
  let text: string | undefined;
  try {
    const parser = new PatternParser(pattern);
    text = parser.alternation();
    if (!parser.done()) return undefined;
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  return matchesWhole(pattern, flags, text) ? text : undefined;
}

/** Whether `pattern` matches all of `text`; false when JavaScript cannot compile the pattern. */
function matchesWhole(pattern: string, flags: string, text: string): boolean {
  for (const mode of ["u", ""]) {
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${pattern})$`, flags.replace(/[^imsu]/g, "") + mode);
    } catch {
      continue;
    }
    return re.test(text);
  }
  return false;
}

/** Whether one character is matched by a piece of pattern (a class, an escape) on its own. */
function firstMatching(piece: string): string | undefined {
  for (const mode of ["u", ""]) {
    let re: RegExp;
    try {
      re = new RegExp(`^${piece}$`, mode);
    } catch {
      continue;
    }
    return CANDIDATES.find((c) => re.test(c));
  }
  return undefined;
}

/**
 * Recursive descent over a pattern, returning the shortest match of each part instead of a syntax
 * tree. Unknown constructs (lookarounds, backreferences) throw; the caller gives up on them.
 */
class PatternParser {
  private at = 0;
  constructor(private readonly source: string) {}

  done(): boolean {
    return this.at >= this.source.length;
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }

  alternation(): string | undefined {
    let best = this.sequence();
    while (this.peek() === "|") {
      this.at++;
      const other = this.sequence();
      if (best === undefined || (other !== undefined && other.length < best.length)) best = other;
    }
    return best;
  }

  private sequence(): string | undefined {
    let text: string | undefined = "";
    while (!this.done() && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.atom();
      const item = this.quantified(atom);
      text = text === undefined || item === undefined ? undefined : text + item;
    }
    return text;
  }

  /** Applies a quantifier after an atom, if there is one: the fewest repetitions it allows. */
  private quantified(atom: string | undefined): string | undefined {
    const c = this.peek();
    let min = 1;
    if (c === "*" || c === "?") {
      min = 0;
      this.at++;
    } else if (c === "+") {
      this.at++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,\d*)?\}/.exec(this.source.slice(this.at));
      if (m === null) throw new Error("bad quantifier");
      min = Number(m[1]);
      this.at += m[0].length;
    } else {
      return atom;
    }
    if (this.peek() === "?") this.at++; // lazy: the same shortest match
    if (min === 0) return "";
    return atom === undefined ? undefined : atom.repeat(min);
  }

  private atom(): string | undefined {
    const c = this.source[this.at++]!;
    switch (c) {
      case "(": {
        if (this.source.startsWith("?:", this.at)) this.at += 2;
        else if (this.peek() === "?") throw new Error("lookaround or named group");
        const inner = this.alternation();
        if (this.source[this.at++] !== ")") throw new Error("unclosed group");
        return inner;
      }
      case "[": {
        const start = this.at - 1;
        if (this.peek() === "^") this.at++;
        if (this.peek() === "]") this.at++;
        while (!this.done() && this.peek() !== "]") this.at += this.peek() === "\\" ? 2 : 1;
        if (this.done()) throw new Error("unclosed class");
        this.at++;
        return firstMatching(this.source.slice(start, this.at));
      }
      case ".":
        return "a";
      case "^":
      case "$":
        return "";
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
      case ")":
        throw new Error("misplaced operator");
      default:
        return c;
    }
  }

  private escape(): string | undefined {
    const c = this.source[this.at++];
    if (c === undefined) throw new Error("trailing backslash");
    if (c === "b" || c === "B") return "";
    if (/[1-9]/.test(c)) throw new Error("backreference");
    if (c === "p" || c === "P" || c === "u" || c === "x") {
      const m = /^(\{[^}]*\}|[0-9a-fA-F]{4}|[0-9a-fA-F]{2})/.exec(this.source.slice(this.at));
      const piece = `\\${c}${m?.[0] ?? ""}`;
      this.at += m?.[0].length ?? 0;
      if (c === "u" || c === "x") {
        const hex = m?.[0].replace(/[{}]/g, "") ?? "";
        if (hex === "") return c;
        return String.fromCodePoint(parseInt(hex, 16));
      }
      return firstMatching(piece);
    }
    const named: Record<string, string> = { d: "0", D: "a", w: "a", W: " ", s: " ", S: "a" };
    const control: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };
    return named[c] ?? control[c] ?? c;
  }
}
