/**
 * Grammar helpers: the methods a grammar's semantic predicates and actions call on `this` (the
 * target-language `superClass` of grammars-v4 grammars), supplied as mixins over antlr4ng's
 * interpreters. A helpers module (option `grammarHelpers`) exports `lexer` and/or `parser` — as named
 * exports or as properties of its default export — each a function from a base class to a subclass:
 *
 * ```js
 * export const parser = (Base) => class extends Base {
 *   notLineTerminator() { … }
 * };
 * ```
 *
 * A lexer mixin may override `reset()` (call `super.reset()`) to clear its state between inputs,
 * and `nextToken()` to watch the tokens it emits.
 */
import type { LexerInterpreter, ParserInterpreter } from "antlr4ng";

// Mixins need constructors of any arguments (TypeScript's mixin pattern).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LexerClass = new (...args: any[]) => LexerInterpreter;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ParserClass = new (...args: any[]) => ParserInterpreter;

export interface GrammarHelpers {
  readonly lexer?: (base: LexerClass) => LexerClass;
  readonly parser?: (base: ParserClass) => ParserClass;
}
