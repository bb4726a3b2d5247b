/**
 * A processed ANTLR grammar as plain, JSON-serializable data: what the antlr-ng tool produces once
 * (serialized ATNs, vocabulary, rule names, predicate and action texts) plus the replacement tables
 * whittle derives from the ATNs. The on-disk grammar cache stores exactly this.
 */

/** One recognizer (lexer or parser) of a grammar. */
export interface RecognizerData {
  readonly grammarName: string;
  readonly grammarFileName: string;
  /** The ATN as antlr4ng's `ATNSerializer.getSerialized()` gives it. */
  readonly atn: readonly number[];
  readonly ruleNames: readonly string[];
  /** By token type: `'{'`, or null (the parser's vocabulary; the lexer's is the same). */
  readonly literalNames: readonly (string | null)[];
  readonly symbolicNames: readonly (string | null)[];
  /** Semantic predicate texts by predicate index, e.g. `[3, "{this.notLineTerminator()}?"]`. */
  readonly predicates: readonly (readonly [number, string])[];
  /** The grammar's `superClass` option, if any (names the helper class its predicates call). */
  readonly superClass: string | null;
}

export interface LexerData extends RecognizerData {
  readonly channelNames: readonly string[];
  readonly modeNames: readonly string[];
  /** Custom lexer action texts by action index, e.g. `[0, "{this.ProcessOpenBrace();}"]`. */
  readonly actions: readonly (readonly [number, string])[];
}

/** Shortest texts derived from the ATNs (see replacements.ts). */
export interface ReplacementTables {
  /** By token type: the token's shortest text (its literal, else the shortest its lexer rules match). */
  readonly tokens: readonly (string | null)[];
  /** By parser rule index: the shortest text the rule derives (tokens joined, spaced where they glue). */
  readonly rules: readonly (string | null)[];
}

export interface GrammarData {
  /** Bumped when the shape or the derivation changes, so older cache files are ignored. */
  readonly format: number;
  readonly lexer: LexerData;
  readonly parser: RecognizerData;
  readonly replacements: ReplacementTables;
}

export const GRAMMAR_DATA_FORMAT = 2;
