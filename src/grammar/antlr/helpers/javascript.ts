/**
 * Helpers for the grammars-v4 JavaScript grammar (JavaScriptLexer.g4 / JavaScriptParser.g4, whose
 * `superClass` options name JavaScriptLexerBase and JavaScriptParserBase). Written for whittle from
 * what each predicate and action of the grammar must decide:
 *
 * Lexer
 * - `IsStartOfFile()`: no token on the default channel has been emitted yet (`#!` lines).
 * - `IsRegexPossible()`: a `/` starts a regular expression unless the previous significant token
 *   ends an operand (identifier, literal, `this`, `)`, `]`, `++`, `--`, a closing backtick), where
 *   it is a division.
 * - `IsStrictMode()`: inside a scope (file or braces) whose first statement is "use strict"; it
 *   makes the future reserved words (`static`, `let`, …) keywords and forbids legacy octal literals.
 *   `ProcessStringLiteral()` sees the directive, `ProcessOpenBrace()` / `ProcessCloseBrace()`
 *   enter and leave scopes, which inherit strictness.
 * - `IsInTemplateString()`: a `}` closes a template substitution `${ … }` (and pops back to the
 *   template mode) when no brace opened inside that substitution is still open.
 *   `ProcessTemplateOpenBrace()` / `ProcessTemplateCloseBrace()` enter and leave substitutions.
 *
 * Parser
 * - `lineTerminatorAhead()`: a line terminator (or a multi-line comment containing one) lies between
 *   the previous significant token and the next one — automatic semicolon insertion.
 * - `notLineTerminator()`: the opposite ("[no LineTerminator here]" of the specification).
 * - `notOpenBraceAndNotFunction()`: an expression statement does not start with `{` or `function`.
 * - `closeBrace()`: the next token is `}` (a semicolon may be omitted before it).
 * - `n(text)` / `p(text)`: the next / previous significant token's text is `text`.
 */
import { Token, type LexerInterpreter, type ParserInterpreter } from "antlr4ng";
import type { GrammarHelpers, LexerClass, ParserClass } from "./types.js";

/** Tokens after which `/` is a division, not the start of a regular expression. */
const OPERAND_END = new Set([
  "Identifier",
  "NullLiteral",
  "BooleanLiteral",
  "This",
  "Super",
  "CloseBracket",
  "CloseParen",
  "OctalIntegerLiteral",
  "DecimalLiteral",
  "HexIntegerLiteral",
  "BinaryIntegerLiteral",
  "BigHexIntegerLiteral",
  "BigOctalIntegerLiteral",
  "BigBinaryIntegerLiteral",
  "BigDecimalIntegerLiteral",
  "StringLiteral",
  "PlusPlus",
  "MinusMinus",
  "BackTick",
]);

const USE_STRICT = new Set(['"use strict"', "'use strict'"]);

export function javascriptLexer(Base: LexerClass): LexerClass {
  return class JavaScriptLexerHelpers extends Base {
    /** The last token emitted on the default channel. */
    lastToken: Token | null = null;
    strict = false;
    /** Strictness of the enclosing scopes, innermost last. */
    strictScopes: boolean[] = [];
    /** Per open template substitution, innermost last: how many braces are open inside it. */
    templateBraces: number[] = [];

    override reset(seekBack?: boolean): void {
      super.reset(seekBack);
      this.lastToken = null;
      this.strict = false;
      this.strictScopes = [];
      this.templateBraces = [];
    }

    override nextToken(): Token {
      const token = super.nextToken();
      if (token.channel === Token.DEFAULT_CHANNEL) this.lastToken = token;
      return token;
    }

    lastTokenName(): string | null {
      return this.lastToken ? this.vocabulary.getSymbolicName(this.lastToken.type) : null;
    }

    IsStartOfFile(): boolean {
      return this.lastToken === null;
    }

    IsRegexPossible(): boolean {
      const name = this.lastTokenName();
      return name === null || !OPERAND_END.has(name);
    }

    IsStrictMode(): boolean {
      return this.strict;
    }

    IsInTemplateString(): boolean {
      return this.templateBraces.length > 0 && this.templateBraces[this.templateBraces.length - 1] === 0;
    }

    ProcessOpenBrace(): void {
      this.strictScopes.push(this.strict);
      if (this.templateBraces.length > 0) this.templateBraces[this.templateBraces.length - 1]! += 1;
    }

    ProcessCloseBrace(): void {
      this.strict = this.strictScopes.pop() ?? false;
      if (this.templateBraces.length > 0) this.templateBraces[this.templateBraces.length - 1]! -= 1;
    }

    ProcessStringLiteral(): void {
      // A directive: the first statement of the file or of a block (function body).
      const name = this.lastTokenName();
      if ((name === null || name === "OpenBrace") && USE_STRICT.has(this.text)) this.strict = true;
    }

    ProcessTemplateOpenBrace(): void {
      this.templateBraces.push(0);
    }

    ProcessTemplateCloseBrace(): void {
      this.templateBraces.pop();
    }
  } satisfies new (...args: never[]) => LexerInterpreter;
}

export function javascriptParser(Base: ParserClass): ParserClass {
  return class JavaScriptParserHelpers extends Base {
    tokenName(token: Token | null): string | null {
      return token ? this.vocabulary.getSymbolicName(token.type) : null;
    }

    lineTerminatorAhead(): boolean {
      const stream = this.inputStream;
      const next = stream.LT(1);
      if (!next) return false;
      for (let i = next.tokenIndex - 1; i >= 0; i--) {
        const t = stream.get(i);
        if (t.channel === Token.DEFAULT_CHANNEL) break;
        const name = this.tokenName(t);
        if (name === "LineTerminator") return true;
        if (name === "MultiLineComment" && /[\r\n\u2028\u2029]/.test(t.text ?? "")) return true;
      }
      return false;
    }

    notLineTerminator(): boolean {
      return !this.lineTerminatorAhead();
    }

    notOpenBraceAndNotFunction(): boolean {
      const name = this.tokenName(this.inputStream.LT(1));
      return name !== "OpenBrace" && name !== "Function_";
    }

    closeBrace(): boolean {
      return this.tokenName(this.inputStream.LT(1)) === "CloseBrace";
    }

    n(text: string): boolean {
      return this.inputStream.LT(1)?.text === text;
    }

    next(text: string): boolean {
      return this.n(text);
    }

    p(text: string): boolean {
      return this.inputStream.LT(-1)?.text === text;
    }

    prev(text: string): boolean {
      return this.p(text);
    }
  } satisfies new (...args: never[]) => ParserInterpreter;
}

export const javascriptHelpers: GrammarHelpers = { lexer: javascriptLexer, parser: javascriptParser };

/** `superClass` names the helpers above stand in for. */
export const JAVASCRIPT_SUPERCLASSES = ["JavaScriptLexerBase", "JavaScriptParserBase"] as const;
