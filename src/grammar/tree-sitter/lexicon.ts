/**
 * A built-in language's lexicon (see passes/lexicon.ts), for the rename and literal passes.
 *
 * Identifier kinds are derived from `grammar.json`: its `word` rule (the identifier rule tree-sitter
 * uses for keyword extraction) and every named alias of it (`alias($.identifier,
 * $.property_identifier)`), which gives the same lists a person would write for JavaScript,
 * TypeScript, C, C++, Python, Java, Rust, Go and PHP. Derived rather than listed, so that a new
 * version of a grammar brings its new kinds along. Two grammars need a list instead
 * (LanguageSpec.identifierKinds): CSS has no `word` rule, and Bash's word is every shell word, command
 * names and file names included; JSON, HTML and YAML have no identifiers (an HTML page's scripts
 * have JavaScript's: see withIslands).
 *
 * Keywords are every word the grammar spells out: its strings, the names of its anonymous aliases
 * and the patterns that are a plain word (PHP's case-insensitive keywords), and its reserved words.
 * That is more than the language's keywords (contextual ones too, `of`, `get`; C's built-in type
 * names), which only keeps a few short names from being used.
 *
 * Literal kinds are listed per language (LanguageSpec.numberKinds, stringKinds): a number's rule is
 * a pattern as an identifier's is, and only the grammar's name for it says what it is.
 */
import type { Lexicon } from "../../passes/lexicon.js";
import type { Rule, TsGrammar } from "./grammar-json.js";
import type { LanguageSpec } from "./languages.js";

const WORD = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function grammarLexicon(grammar: TsGrammar, spec: LanguageSpec): Lexicon {
  const keywords = new Set<string>();
  const aliases = new Set<string>();
  const word = grammar.json.word;
  const isWord = (rule: Rule): boolean => rule.type === "SYMBOL" && rule.name === word;
  const stack: Rule[] = [...grammar.rules.values()];
  for (const rules of Object.values(grammar.json.reserved ?? {})) stack.push(...rules);
  while (stack.length > 0) {
    const rule = stack.pop()!;
    if (rule.type === "STRING" && WORD.test(rule.value)) keywords.add(rule.value);
    if (rule.type === "PATTERN" && WORD.test(rule.value)) keywords.add(rule.value);
    if (rule.type === "ALIAS" && !rule.named && WORD.test(rule.value)) keywords.add(rule.value);
    if (
      rule.type === "ALIAS" &&
      rule.named &&
      (isWord(rule.content) || (rule.content.type === "CHOICE" && rule.content.members.some(isWord)))
    ) {
      aliases.add(rule.value);
    }
    // Inside a token, strings are pieces of one lexeme (the `e` of `1e5`), not words of their own;
    // unless the token is one of a few words (C's `token(choice('int', 'char', …))`).
    if ((rule.type === "TOKEN" || rule.type === "IMMEDIATE_TOKEN") && !isWordChoice(rule.content)) continue;
    if ("content" in rule) stack.push(rule.content);
    if ("members" in rule) stack.push(...rule.members);
  }
  const identifierKinds =
    spec.identifierKinds !== undefined
      ? new Set(spec.identifierKinds)
      : word === undefined
        ? new Set<string>()
        : new Set([word, ...aliases]);
  const caseInsensitive = spec.caseInsensitiveNames === true;
  return {
    identifierKinds,
    keywords: caseInsensitive ? new Set([...keywords].map((k) => k.toLowerCase())) : keywords,
    numberKinds: new Set(spec.numberKinds),
    stringKinds: new Set(spec.stringKinds),
    caseInsensitive,
    ...(spec.prefixedNames
      ? { prefixed: { kinds: new Set(spec.prefixedNames.kinds), prefix: spec.prefixedNames.prefix } }
      : {}),
  };
}

/** A string, or a choice of strings (under any precedence). */
function isWordChoice(rule: Rule): boolean {
  while (
    rule.type === "PREC" ||
    rule.type === "PREC_LEFT" ||
    rule.type === "PREC_RIGHT" ||
    rule.type === "PREC_DYNAMIC"
  )
    rule = rule.content;
  return rule.type === "STRING" || (rule.type === "CHOICE" && rule.members.every((m) => m.type === "STRING"));
}

/**
 * The lexicon of a language with islands (LanguageSpec.injections): its own, with the islands'
 * keywords, numbers and strings, and the identifiers of the islands whose names are the input's own
 * (Injection.names). Where an island's identifiers are not names, its identifier tokens are told
 * apart by where they stand, not by kind (TreeSitterFrontEnd.isName): CSS's `identifier` is
 * JavaScript's kind too.
 */
export function withIslands(
  own: Lexicon,
  islands: readonly { readonly lexicon: Lexicon; readonly names: boolean }[],
): Lexicon {
  if (islands.length === 0) return own;
  const union = (pick: (lexicon: Lexicon) => ReadonlySet<string>, all: readonly Lexicon[]): Set<string> =>
    new Set(all.flatMap((lexicon) => [...pick(lexicon)]));
  const every = [own, ...islands.map((island) => island.lexicon)];
  const named = [own, ...islands.filter((island) => island.names).map((island) => island.lexicon)];
  return {
    identifierKinds: union((l) => l.identifierKinds, named),
    keywords: union((l) => l.keywords, every),
    numberKinds: union((l) => l.numberKinds, every),
    stringKinds: union((l) => l.stringKinds, every),
    caseInsensitive: own.caseInsensitive,
    // An island's prefixed names are its own kinds (a style's `plain_value`): the host's only.
    ...(own.prefixed ? { prefixed: own.prefixed } : {}),
  };
}
