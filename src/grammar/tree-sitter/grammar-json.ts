/**
 * A tree-sitter grammar as its `src/grammar.json` describes it: the rules' expressions, and which
 * names a parse tree never shows as nodes of their own (hidden `_rules`, inlined rules, supertypes,
 * hidden external tokens).
 */

/** One expression of `grammar.json` (the `type` field names the combinator). */
export type Rule =
  | { readonly type: "BLANK" }
  | { readonly type: "STRING"; readonly value: string }
  | { readonly type: "PATTERN"; readonly value: string; readonly flags?: string }
  | { readonly type: "SYMBOL"; readonly name: string }
  | { readonly type: "SEQ" | "CHOICE"; readonly members: readonly Rule[] }
  | { readonly type: "REPEAT" | "REPEAT1"; readonly content: Rule }
  | { readonly type: "FIELD"; readonly name: string; readonly content: Rule }
  | { readonly type: "ALIAS"; readonly value: string; readonly named: boolean; readonly content: Rule }
  | {
      readonly type: "PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC";
      readonly value: number | string;
      readonly content: Rule;
    }
  | { readonly type: "TOKEN" | "IMMEDIATE_TOKEN"; readonly content: Rule }
  | { readonly type: "RESERVED"; readonly context_name: string; readonly content: Rule };

export interface GrammarJson {
  readonly name: string;
  readonly rules: Readonly<Record<string, Rule>>;
  readonly extras?: readonly Rule[];
  readonly externals?: readonly Rule[];
  readonly inline?: readonly string[];
  readonly supertypes?: readonly string[];
  readonly word?: string;
  /** Sets of reserved words, by context (words that are never identifiers there). */
  readonly reserved?: Readonly<Record<string, readonly Rule[]>>;
}

/** The grammar with the questions the front-end asks of it answered once. */
export class TsGrammar {
  readonly rules: ReadonlyMap<string, Rule>;
  /** The first rule: the root of every parse tree. */
  readonly start: string;
  private readonly expanded: ReadonlySet<string>;
  private readonly externals: ReadonlySet<string>;

  constructor(readonly json: GrammarJson) {
    this.rules = new Map(Object.entries(json.rules));
    this.start = Object.keys(json.rules)[0]!;
    this.expanded = new Set([...(json.inline ?? []), ...(json.supertypes ?? [])]);
    this.externals = new Set(
      (json.externals ?? []).flatMap((rule) => (rule.type === "SYMBOL" ? [rule.name] : [])),
    );
  }

  /**
   * Every literal text of the grammar (its STRING rules: keywords, operators, punctuation), found
   * once when first asked for.
   */
  get literals(): ReadonlySet<string> {
    if (this.literalTexts === undefined) {
      const found = new Set<string>();
      const stack: Rule[] = [...this.rules.values()];
      while (stack.length > 0) {
        const rule = stack.pop()!;
        if (rule.type === "STRING") found.add(rule.value);
        else if ("members" in rule) stack.push(...rule.members);
        else if ("content" in rule) stack.push(rule.content);
      }
      this.literalTexts = found;
    }
    return this.literalTexts;
  }
  private literalTexts: ReadonlySet<string> | undefined;

  /**
   * Whether a symbol is expanded into its parent in a parse tree rather than showing as a node:
   * hidden rules (`_x`), inlined rules and supertypes. Only meaningful for names with a rule.
   */
  isExpanded(name: string): boolean {
    return name.startsWith("_") || this.expanded.has(name);
  }

  /**
   * The rules that a named alias `type` stands for somewhere in the grammar (`alias($._r_blk_map,
   * $.block_mapping)`): what a node of that type may have been derived from, when the parse tree
   * does not say.
   */
  aliasedAs(type: string): readonly string[] {
    if (this.aliases === undefined) {
      const aliases = new Map<string, Set<string>>();
      const stack: Rule[] = [...this.rules.values()];
      while (stack.length > 0) {
        const rule = stack.pop()!;
        if (
          rule.type === "ALIAS" &&
          rule.named &&
          rule.content.type === "SYMBOL" &&
          this.rules.has(rule.content.name)
        ) {
          let names = aliases.get(rule.value);
          if (names === undefined) aliases.set(rule.value, (names = new Set()));
          names.add(rule.content.name);
        }
        if ("content" in rule) stack.push(rule.content);
        if ("members" in rule) stack.push(...rule.members);
      }
      this.aliases = new Map([...aliases].map(([k, v]) => [k, [...v].sort()]));
    }
    return this.aliases.get(type) ?? [];
  }

  private aliases: Map<string, readonly string[]> | undefined;

  /**
   * The kinds of parse-tree nodes that one of the grammar's supertypes derives, for every kind that
   * one derives: kind → the other kinds of the supertypes it belongs to. A supertype (`expression`,
   * `statement`) is what an ANTLR grammar writes as one rule with alternatives, which hoisting
   * treats as one kind; tree-sitter names each alternative's node by its own kind
   * (`ternary_expression`, `identifier`) and hides the rule. Nested supertypes (`primary_expression`
   * in `expression`) and hidden rules between are expanded; a named alias counts by its name.
   */
  supertypeKinds(): ReadonlyMap<string, ReadonlySet<string>> {
    if (this.superKinds === undefined) {
      const table = new Map<string, Set<string>>();
      for (const supertype of this.json.supertypes ?? []) {
        const kinds = new Set<string>();
        const seen = new Set<string>([supertype]);
        const stack: Rule[] = [this.rules.get(supertype)!];
        while (stack.length > 0) {
          const rule = stack.pop()!;
          if (rule.type === "SYMBOL") {
            if (!this.isExpanded(rule.name)) kinds.add(rule.name);
            else if (!seen.has(rule.name) && this.rules.has(rule.name)) {
              seen.add(rule.name);
              stack.push(this.rules.get(rule.name)!);
            }
          } else if (rule.type === "ALIAS") {
            if (rule.named) kinds.add(rule.value);
          } else if (rule.type === "CHOICE") stack.push(...rule.members);
          else if (
            rule.type === "PREC" ||
            rule.type === "PREC_LEFT" ||
            rule.type === "PREC_RIGHT" ||
            rule.type === "PREC_DYNAMIC"
          )
            stack.push(rule.content);
        }
        for (const kind of kinds) {
          let others = table.get(kind);
          if (others === undefined) table.set(kind, (others = new Set()));
          for (const other of kinds) if (other !== kind) others.add(other);
        }
      }
      this.superKinds = table;
    }
    return this.superKinds;
  }
  private superKinds: Map<string, Set<string>> | undefined;

  /** A token that the language's external scanner (C code) produces, not the grammar's rules. */
  isExternal(name: string): boolean {
    return this.externals.has(name) && !this.rules.has(name);
  }
}
