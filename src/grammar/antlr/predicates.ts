/**
 * Semantic predicates and lexer actions written as calls of the grammar's helper class:
 * `{this.notLineTerminator()}?`, `{!this.IsStrictMode()}?`, `{this.n("static")}?`,
 * `{this.ProcessOpenBrace();}`. Such texts are turned into functions over the interpreter (whose
 * class mixes in the helpers); anything else is target-language code whittle cannot run, and is
 * reported and ignored (a predicate then holds, an action does nothing).
 */

/** A call `this.method(args)` parsed from a predicate or action text. */
export interface HelperCall {
  readonly negate: boolean;
  readonly method: string;
  readonly args: readonly (string | number | boolean)[];
}

const CALL = /^\{\s*(!\s*)?this\.([A-Za-z_$][\w$]*)\s*\(([^()]*)\)\s*;?\s*\}\??$/s;
const ARG = /^\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(-?\d+(?:\.\d+)?)|(true|false))\s*$/s;

/** Parses `{!this.name("a", 1)}?` or `{this.name();}`; null when the text is not such a call. */
export function parseHelperCall(text: string): HelperCall | null {
  const m = CALL.exec(text.trim());
  if (!m) return null;
  const argText = m[3]!.trim();
  const args: (string | number | boolean)[] = [];
  if (argText !== "") {
    for (const part of splitArgs(argText)) {
      const a = ARG.exec(part);
      if (!a) return null;
      if (a[1] !== undefined) args.push(unescape(a[1]));
      else if (a[2] !== undefined) args.push(unescape(a[2]));
      else if (a[3] !== undefined) args.push(Number(a[3]));
      else args.push(a[4] === "true");
    }
  }
  return { negate: m[1] !== undefined, method: m[2]!, args };
}

function splitArgs(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      current += c;
      if (c === "\\") current += text[++i] ?? "";
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ",") {
      parts.push(current);
      current = "";
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_m, c: string) => ({ n: "\n", r: "\r", t: "\t" })[c] ?? c);
}

/** Calls `call` on `target`; for a predicate, the result as a boolean (negated when written `!`). */
export function invokeHelper(target: object, call: HelperCall): boolean {
  const fn = (target as Record<string, unknown>)[call.method] as (...a: unknown[]) => unknown;
  const result = Boolean(fn.apply(target, [...call.args]));
  return call.negate ? !result : result;
}
