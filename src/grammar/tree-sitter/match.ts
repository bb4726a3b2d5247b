/**
 * Which children of a tree-sitter node may go: the children (their types, as the parse tree shows
 * them) are matched against the expression of the node's rule in `grammar.json`, with hidden rules,
 * inlined rules and supertypes expanded in place. A child, or a run of children, matched by one item
 * of a REPEAT, by an item of a REPEAT1 other than the first, or by the non-blank side of a CHOICE
 * with BLANK, is a removable group (the `*`, `+` and `?` of the grammar).
 *
 * The match is a set of derivations computed left to right; derivations that reach the same child
 * are merged, keeping only the groups they all agree on. So where the children can be derived in
 * several ways, a group survives only if every derivation has it: the answer is conservative.
 */
import type { Group } from "../groups.js";
import type { Rule, TsGrammar } from "./grammar-json.js";

/** A child as the parse tree shows it: its type (an alias's name, if aliased) and whether named. */
export interface ChildType {
  readonly type: string;
  readonly named: boolean;
}

/** Groups of one derivation, as a persistent list (cheap to share between derivations). */
type Groups = null | { readonly group: Group } | { readonly left: Groups; readonly right: Groups };

/** Derivations of a part of the children: where each one ends → the groups it found. */
type Ends = Map<number, Groups>;

/** Work beyond this many steps for one node is given up: no child of it is then removable. */
const MAX_STEPS = 200_000;

class TooMuchWork extends Error {}

/**
 * The removable groups among `children` (indices into it) when they are derived from `rule`, or
 * undefined when the children cannot be derived from it (or matching them costs too much).
 */
export function removableGroups(
  grammar: TsGrammar,
  rule: Rule,
  children: readonly ChildType[],
): Group[] | undefined {
  const matcher = new Matcher(grammar, children);
  let ends: Ends;
  try {
    ends = matcher.match(rule, 0);
  } catch (error) {
    if (error instanceof TooMuchWork) return undefined;
    throw error;
  }
  if (!ends.has(children.length)) return undefined;
  return flatten(ends.get(children.length)!);
}

/**
 * The removable groups of a parse-tree node's children: from the rule its grammar type names, or,
 * when that names no rule, from the rules its type is a visible alias of (YAML's `block_mapping`
 * is `_r_blk_map` or `_br_blk_map`, and web-tree-sitter reports the alias): the children are
 * matched against each, and only the groups that every rule they match agrees on are kept.
 * Undefined when no rule derives the children.
 */
export function nodeGroups(
  grammar: TsGrammar,
  grammarType: string,
  type: string,
  children: readonly ChildType[],
): Group[] | undefined {
  const rule = grammar.rules.get(grammarType);
  if (rule !== undefined) return removableGroups(grammar, rule, children);
  let common: Group[] | undefined;
  for (const name of grammar.aliasedAs(type)) {
    const groups = removableGroups(grammar, grammar.rules.get(name)!, children);
    if (groups === undefined) continue;
    const keys = new Set(groups.map(span));
    common = (common ?? groups).filter((g) => keys.has(span(g)));
  }
  return common;
}

class Matcher {
  /** Per expression and start position: its derivations, or IN_PROGRESS while being computed. */
  private readonly memo = new Map<Rule, (Ends | typeof IN_PROGRESS | undefined)[]>();
  private steps = 0;
  private readonly firsts: FirstSets;
  /** typeKey() of each child. */
  private readonly keys: readonly string[];

  constructor(
    private readonly grammar: TsGrammar,
    private readonly children: readonly ChildType[],
  ) {
    this.firsts = firstSetsOf(grammar);
    this.keys = children.map((c) => typeKey(c.type, c.named));
  }

  match(rule: Rule, at: number): Ends {
    if (++this.steps > MAX_STEPS) throw new TooMuchWork();
    // Most alternatives cannot start with the child at hand: skip them without a memo entry.
    const start = this.firsts.of(rule);
    if (!start.nullable) {
      const key = this.keys[at];
      if (key === undefined || !start.first.has(key)) return NOTHING;
    }
    let row = this.memo.get(rule);
    if (row === undefined) this.memo.set(rule, (row = []));
    const known = row[at];
    // A rule that reaches itself without consuming a child (left recursion through hidden rules)
    // finds nothing that way; the other alternatives still match.
    if (known === IN_PROGRESS) return new Map<number, Groups>();
    if (known !== undefined) return known;
    row[at] = IN_PROGRESS;
    const ends = this.compute(rule, at);
    row[at] = ends;
    return ends;
  }

  private compute(rule: Rule, at: number): Ends {
    switch (rule.type) {
      case "BLANK":
      case "PATTERN":
        // An inline pattern is a hidden token: it never shows as a child.
        return single(at, null);
      case "STRING":
        return this.one(at, rule.value, false);
      case "TOKEN":
      case "IMMEDIATE_TOKEN": {
        // token("x") is the anonymous token "x"; any other token(...) has no name and is hidden.
        const inner = unwrapPrec(rule.content);
        return inner.type === "STRING" ? this.one(at, inner.value, false) : single(at, null);
      }
      case "ALIAS":
        return this.one(at, rule.value, rule.named);
      case "SYMBOL":
        return this.symbol(rule.name, at);
      case "FIELD":
      case "PREC":
      case "PREC_LEFT":
      case "PREC_RIGHT":
      case "PREC_DYNAMIC":
      case "RESERVED":
        return this.match(rule.content, at);
      case "SEQ": {
        let states: Ends = single(at, null);
        for (const member of rule.members) {
          const next: Ends = new Map();
          for (const [from, groups] of states) {
            for (const [to, more] of this.match(member, from)) add(next, to, concat(groups, more));
          }
          states = next;
          if (states.size === 0) break;
        }
        return states;
      }
      case "CHOICE": {
        const optional = rule.members.some((m) => m.type === "BLANK");
        const out: Ends = new Map();
        for (const member of rule.members) {
          if (member.type === "BLANK") continue;
          for (const [to, groups] of this.match(member, at)) {
            add(out, to, optional && to > at ? concat(leaf(at, to, "?"), groups) : groups);
          }
        }
        if (optional) add(out, at, null);
        return out;
      }
      case "REPEAT":
      case "REPEAT1":
        return this.repeat(rule.content, at, rule.type === "REPEAT" ? "*" : "+");
    }
  }

  /** Derivations of `content` repeated; each item is a group, except a REPEAT1's first. */
  private repeat(content: Rule, at: number, quantifier: "*" | "+"): Ends {
    const out: Ends = new Map();
    let frontier: Ends;
    if (quantifier === "*") {
      frontier = single(at, null);
    } else {
      frontier = this.match(content, at);
    }
    while (frontier.size > 0) {
      for (const [to, groups] of frontier) add(out, to, groups);
      const next: Ends = new Map();
      for (const [from, groups] of frontier) {
        for (const [to, more] of this.match(content, from)) {
          if (to === from) continue; // an empty item adds nothing
          add(next, to, concat(groups, concat(leaf(from, to, quantifier), more)));
        }
      }
      frontier = next;
    }
    return out;
  }

  private symbol(name: string, at: number): Ends {
    const rule = this.grammar.rules.get(name);
    if (rule !== undefined) {
      return this.grammar.isExpanded(name) ? this.match(rule, at) : this.one(at, name, true);
    }
    if (this.grammar.isExternal(name)) {
      return name.startsWith("_") ? single(at, null) : this.one(at, name, true);
    }
    return new Map<number, Groups>();
  }

  /** The child at `at` if it has this type and namedness. */
  private one(at: number, type: string, named: boolean): Ends {
    const child = this.children[at];
    return child !== undefined && child.type === type && child.named === named
      ? single(at + 1, null)
      : new Map<number, Groups>();
  }
}

const IN_PROGRESS = Symbol("in progress");
/** No derivation (shared: derivation maps are never changed once returned). */
const NOTHING: Ends = new Map();

/** What an expression can derive first: whether nothing at all, and the child types it may start with. */
interface Start {
  readonly nullable: boolean;
  /** typeKey()s of the children a derivation may start with. */
  readonly first: ReadonlySet<string>;
}

function typeKey(type: string, named: boolean): string {
  return `${named ? "n" : "a"}:${type}`;
}

const firstSetCache = new WeakMap<TsGrammar, FirstSets>();

function firstSetsOf(grammar: TsGrammar): FirstSets {
  let sets = firstSetCache.get(grammar);
  if (sets === undefined) firstSetCache.set(grammar, (sets = new FirstSets(grammar)));
  return sets;
}

/**
 * FIRST sets and nullability of every expression (the classic fixed point over the expanded
 * symbols), so the matcher skips alternatives that cannot start with the next child.
 */
class FirstSets {
  private readonly symbols = new Map<string, Start>();
  private readonly cache = new Map<Rule, Start>();
  private settled = false;

  constructor(private readonly grammar: TsGrammar) {
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, rule] of grammar.rules) {
        if (!grammar.isExpanded(name)) continue;
        const old = this.symbols.get(name);
        const now = this.compute(rule);
        if (old === undefined || old.nullable !== now.nullable || old.first.size !== now.first.size) {
          this.symbols.set(name, now);
          changed = true;
        }
      }
    }
    this.settled = true;
  }

  of(rule: Rule): Start {
    let start = this.cache.get(rule);
    if (start === undefined) {
      start = this.compute(rule);
      if (this.settled) this.cache.set(rule, start);
    }
    return start;
  }

  private compute(rule: Rule): Start {
    const token = (key: string): Start => ({ nullable: false, first: new Set([key]) });
    const empty: Start = { nullable: true, first: new Set() };
    switch (rule.type) {
      case "BLANK":
      case "PATTERN":
        return empty;
      case "STRING":
        return token(typeKey(rule.value, false));
      case "TOKEN":
      case "IMMEDIATE_TOKEN": {
        const inner = unwrapPrec(rule.content);
        return inner.type === "STRING" ? token(typeKey(inner.value, false)) : empty;
      }
      case "ALIAS":
        return token(typeKey(rule.value, rule.named));
      case "SYMBOL": {
        const name = rule.name;
        if (this.grammar.rules.has(name)) {
          if (!this.grammar.isExpanded(name)) return token(typeKey(name, true));
          return this.symbols.get(name) ?? { nullable: false, first: new Set() };
        }
        if (this.grammar.isExternal(name)) return name.startsWith("_") ? empty : token(typeKey(name, true));
        return { nullable: false, first: new Set() };
      }
      case "SEQ": {
        const first = new Set<string>();
        for (const member of rule.members) {
          const start = this.of(member);
          for (const key of start.first) first.add(key);
          if (!start.nullable) return { nullable: false, first };
        }
        return { nullable: true, first };
      }
      case "CHOICE": {
        const first = new Set<string>();
        let nullable = false;
        for (const member of rule.members) {
          const start = this.of(member);
          for (const key of start.first) first.add(key);
          nullable ||= start.nullable;
        }
        return { nullable, first };
      }
      case "REPEAT":
        return { nullable: true, first: this.of(rule.content).first };
      case "REPEAT1":
      case "FIELD":
      case "PREC":
      case "PREC_LEFT":
      case "PREC_RIGHT":
      case "PREC_DYNAMIC":
      case "RESERVED":
        return this.of(rule.content);
    }
  }
}

function unwrapPrec(rule: Rule): Rule {
  let r = rule;
  while (r.type === "PREC" || r.type === "PREC_LEFT" || r.type === "PREC_RIGHT" || r.type === "PREC_DYNAMIC")
    r = r.content;
  return r;
}

function single(end: number, groups: Groups): Ends {
  return new Map([[end, groups]]);
}

function leaf(start: number, end: number, quantifier: string): Groups {
  return { group: { start, end, quantifier } };
}

function concat(left: Groups, right: Groups): Groups {
  if (left === null) return right;
  if (right === null) return left;
  return { left, right };
}

/**
 * Adds a derivation; one that ends where another does keeps only the groups both have. Groups are
 * the same when they span the same children, whatever their quantifier: CSS's block is
 * `{ _block_item* declaration? }`, and its last declaration is an item of the `*` in one derivation
 * and the `?` in the other — removable in both.
 */
function add(ends: Ends, end: number, groups: Groups): void {
  if (!ends.has(end)) {
    ends.set(end, groups);
    return;
  }
  const old = ends.get(end)!;
  if (old === groups) return;
  const keys = new Set(flatten(groups).map(span));
  const common = flatten(old).filter((g) => keys.has(span(g)));
  ends.set(
    end,
    common.reduce<Groups>((list, g) => concat(list, { group: g }), null),
  );
}

function span(group: Group): string {
  return `${group.start}:${group.end}`;
}

/** The groups of a list, left to right (iteratively: lists of long repetitions are deep). */
function flatten(groups: Groups): Group[] {
  const out: Group[] = [];
  const stack: Groups[] = [groups];
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (g === null) continue;
    if ("group" in g) out.push(g.group);
    else stack.push(g.right, g.left);
  }
  return out;
}
