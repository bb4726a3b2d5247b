/**
 * Minimal replacements from the grammar's ATNs: the shortest text each token and each parser rule
 * can derive (Hodován et al., "Extending HDD with hoisting", Sec. II: a removed node is replaced by
 * its rule's minimal derivation, not by nothing, so the result stays syntactically valid).
 *
 * Both computations are the same shortest-path fixpoint over an ATN. For every state s, best(s) is
 * the cheapest way from s to the stop state of s's rule: a transition that consumes a symbol costs
 * that symbol, one that calls a rule costs that rule's current best and continues at its follow
 * state, epsilon-like transitions are free. Relaxing all states until nothing changes handles
 * recursion (a rule whose every path recurses stays unreachable, i.e. null). Semantic predicates
 * are treated as closed on a first pass, because a derivation that needs one to hold (JavaScript's
 * `eos: {this.lineTerminatorAhead()}?`) is not safe in an arbitrary context; only rules left without
 * a derivation then get one through predicates. Matching EOF is treated the same way: it is only
 * right at the very end of the input.
 */
import { ATNState, Transition, type ATN, type RuleTransition } from "antlr4ng";

/** Shortest value found so far for a state: total cost and the symbols, in order. */
interface Best {
  readonly cost: number;
  readonly symbols: readonly number[];
}

type Relaxable = (t: Transition) => { cost: number; symbols: readonly number[] } | "rule" | "epsilon" | null;

/**
 * Fixpoint of best(s) over all states of `atn`. `consume` prices a symbol-consuming transition (null:
 * impossible). Returns best(ruleStart) per rule.
 */
function shortestPerRule(atn: ATN, consume: (t: Transition) => Best | null): (Best | null)[] {
  const best: (Best | null)[] = new Array<Best | null>(atn.states.length).fill(null);
  for (const stop of atn.ruleToStopState) if (stop) best[stop.stateNumber] = { cost: 0, symbols: [] };
  const ruleBest = (ruleIndex: number): Best | null => {
    const start = atn.ruleToStartState[ruleIndex];
    return start ? best[start.stateNumber]! : null;
  };
  const classify: Relaxable = (t) => {
    switch (t.transitionType) {
      case Transition.EPSILON:
      case Transition.ACTION:
      case Transition.PRECEDENCE:
        return "epsilon";
      case Transition.RULE:
        return "rule";
      default:
        return consume(t);
    }
  };
  for (const allowPredicates of [false, true]) {
    let changed = true;
    while (changed) {
      changed = false;
      // Walk states backwards: most ATN edges point to higher state numbers, so this converges fast.
      for (let i = atn.states.length - 1; i >= 0; i--) {
        const s = atn.states[i];
        if (!s) continue;
        if ((s.constructor as typeof ATNState).stateType === ATNState.RULE_STOP) continue;
        // On the second pass, only states still without a derivation may use predicates.
        if (allowPredicates && best[i] !== null) continue;
        let current = best[i] ?? null;
        for (const t of s.transitions) {
          let candidate: Best | null = null;
          if (t.transitionType === Transition.PREDICATE || consumesEof(t)) {
            if (!allowPredicates) continue;
            candidate = best[t.target.stateNumber] ?? null;
          } else {
            const kind = classify(t);
            if (kind === null) continue;
            if (kind === "epsilon") {
              candidate = best[t.target.stateNumber] ?? null;
            } else if (kind === "rule") {
              const rt = t as RuleTransition;
              const callee = ruleBest(rt.target.ruleIndex);
              const follow = best[rt.followState.stateNumber];
              if (callee && follow) candidate = join(callee, follow);
            } else {
              const rest = best[t.target.stateNumber];
              if (rest) candidate = join(kind, rest);
            }
          }
          if (candidate && better(candidate, current)) current = candidate;
        }
        if (current !== best[i]) {
          best[i] = current;
          changed = true;
        }
      }
    }
  }
  return atn.ruleToStartState.map((s) => (s ? (best[s.stateNumber] ?? null) : null));
}

/** EOF matches only at the end of the input; like a predicate, it is a last resort. */
const EOF_MARK: Best = { cost: 0, symbols: [] };

function consumesEof(t: Transition): boolean {
  return t.transitionType === Transition.ATOM && t.label?.minElement === -1;
}

function join(a: Best, b: Best): Best {
  return {
    cost: a.cost + b.cost,
    symbols: a.symbols.length === 0 ? b.symbols : [...a.symbols, ...b.symbols],
  };
}

/** Lower cost wins; on a tie, fewer symbols, then the lexicographically smaller symbols. */
function better(a: Best, b: Best | null): boolean {
  if (b === null) return true;
  if (a.cost !== b.cost) return a.cost < b.cost;
  if (a.symbols.length !== b.symbols.length) return a.symbols.length < b.symbols.length;
  for (let i = 0; i < a.symbols.length; i++) {
    if (a.symbols[i] !== b.symbols[i]) return a.symbols[i]! < b.symbols[i]!;
  }
  return false;
}

// Characters tried first when a set must be represented by one member: letters, digits, then
// other printable ASCII, so that `[a-z]+` gives "a" and `~["\\]` gives a readable character.
const PREFERRED_CHARS: readonly number[] = (() => {
  const out: number[] = [];
  const range = (a: string, b: string): void => {
    for (let c = a.charCodeAt(0); c <= b.charCodeAt(0); c++) out.push(c);
  };
  range("a", "z");
  range("A", "Z");
  range("0", "9");
  range("!", "~");
  out.push(0x20);
  return [...new Set(out)];
})();

const MAX_CODE_POINT = 0x10ffff;

/** The character a lexer transition is represented by in a shortest string, or null if none. */
export function representativeChar(t: Transition): number | null {
  if (t.transitionType === Transition.ATOM) return t.label!.minElement;
  for (const c of PREFERRED_CHARS) if (t.matches(c, 0, MAX_CODE_POINT)) return c;
  if (t.transitionType === Transition.NOT_SET) {
    for (let c = 0; c <= 0xffff; c++) if (t.matches(c, 0, MAX_CODE_POINT)) return c;
    return null;
  }
  const label = t.label;
  return label && label.length > 0 ? label.minElement : null;
}

/** Shortest string each lexer rule matches (by lexer rule index; null for none). */
export function shortestLexerRuleTexts(atn: ATN): (string | null)[] {
  const perRule = shortestPerRule(atn, (t) => {
    const c = representativeChar(t);
    return c === null ? null : { cost: 1, symbols: [c] };
  });
  return perRule.map((b) => (b ? String.fromCodePoint(...b.symbols) : null));
}

/** ANTLR literal name (`'{'`, `'\n'`, `'\u00e9'`) to the text it stands for. */
export function unquoteLiteral(literal: string): string {
  const body = literal.slice(1, -1);
  return body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)/g, (_m, e: string) => {
    if (e.startsWith("u{")) return String.fromCodePoint(parseInt(e.slice(2, -1), 16));
    if (e.startsWith("u") && e.length === 5) return String.fromCodePoint(parseInt(e.slice(1), 16));
    const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
    return simple[e] ?? e;
  });
}

/**
 * Shortest text per token type: the token's literal when it has one (`'{'` → `{`), else the shortest
 * string any lexer rule producing that type matches.
 */
export function shortestTokenTexts(
  lexerAtn: ATN,
  literalNames: readonly (string | null)[],
  maxTokenType: number,
): (string | null)[] {
  const ruleTexts = shortestLexerRuleTexts(lexerAtn);
  const out: (string | null)[] = [];
  for (let type = 0; type <= maxTokenType; type++) {
    const literal = literalNames[type];
    if (literal) {
      out.push(unquoteLiteral(literal));
      continue;
    }
    let found: string | null = null;
    lexerAtn.ruleToTokenType.forEach((ruleType, rule) => {
      const text = ruleTexts[rule];
      if (
        ruleType === type &&
        text !== null &&
        text !== undefined &&
        (found === null || text.length < found.length)
      ) {
        found = text;
      }
    });
    out.push(found);
  }
  return out;
}

/**
 * Shortest token sequence per parser rule, as text: tokens joined with a space where the glue check
 * says they would lex as something else. A token costs its text's length plus one (a separator, and
 * fewer tokens when lengths tie). EOF costs nothing but is a last resort.
 */
export function shortestRuleTexts(
  parserAtn: ATN,
  tokenTexts: readonly (string | null)[],
  glue: (left: string, right: string) => boolean,
): (string | null)[] {
  const tokenCost = (type: number): Best | null => {
    if (type === -1) return EOF_MARK;
    const text = tokenTexts[type];
    return text === null || text === undefined ? null : { cost: [...text].length + 1, symbols: [type] };
  };
  const perRule = shortestPerRule(parserAtn, (t) => {
    if (t.transitionType === Transition.ATOM) return tokenCost(t.label!.minElement);
    if (t.transitionType === Transition.WILDCARD || t.transitionType === Transition.NOT_SET) {
      let chosen: Best | null = null;
      for (let type = 1; type < tokenTexts.length; type++) {
        if (!t.matches(type, 1, parserAtn.maxTokenType)) continue;
        const c = tokenCost(type);
        if (c && better(c, chosen)) chosen = c;
      }
      return chosen;
    }
    let chosen: Best | null = null;
    for (const type of t.label?.toArray() ?? []) {
      const c = tokenCost(type);
      if (c && better(c, chosen)) chosen = c;
    }
    return chosen;
  });
  return perRule.map((b) =>
    b
      ? joinTokenTexts(
          b.symbols.map((type) => tokenTexts[type] ?? ""),
          glue,
        )
      : null,
  );
}

/** Concatenates token texts, with a space between two that would glue. */
export function joinTokenTexts(
  texts: readonly string[],
  glue: (left: string, right: string) => boolean,
): string {
  let out = "";
  let previous: string | undefined;
  for (const text of texts) {
    if (text === "") continue;
    if (previous !== undefined && glue(previous, text)) out += " ";
    out += text;
    previous = text;
  }
  return out;
}
