/**
 * The ANTLR front-end: parse trees (RawNode) from any ANTLR v4 grammar, loaded at run time.
 */
export {
  loadAntlrGrammar,
  AntlrGrammar,
  decodeInput,
  type AntlrGrammarOptions,
  type ParseOptions,
  type ParseResult,
  type GrammarSource,
} from "./grammar.js";
export type { SyntaxErrorInfo, Quantifier } from "./interpreters.js";
export type { GrammarHelpers, LexerClass, ParserClass } from "./helpers/types.js";
export { javascriptHelpers } from "./helpers/javascript.js";
export { defaultCacheDir } from "./cache.js";
