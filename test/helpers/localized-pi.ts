/**
 * The interestingness test of the hoisting paper's Fig. 5, as a model that needs no Java: does
 * `javac LocalizedPi.java && java LocalizedPi hu` end with the uncaught exception
 * `java.lang.Exception: Unsupported locale`? The real thing costs 1-2 s a candidate here (0.1 s even
 * with javac kept running, test/fixtures/localized-pi/ThrowsOnHu.java), and a reduction asks a few
 * hundred times.
 *
 * The model is a small Java front-end and interpreter for what the reductions of LocalizedPi.java can
 * contain: one class of static methods with String and String[] parameters, local variables, `if`,
 * `return` and `throw` statements, string and int literals, calls, field and array access and `new`.
 * It checks what javac checks there (names, types, overloads, static context, checked exceptions,
 * reachability, missing returns, definite assignment, modifiers) and runs `main` as the `java`
 * launcher would. Anything else is rejected as "outside the model": the tree reductions of the input
 * never get there (the text token-level ddmin makes there was, where checked, not interesting to
 * javac and java either). The test's javac mode (WHITTLE_JAVA_ORACLE=javac) compares the model with
 * javac on every candidate of the three reductions.
 */

/** Why `source` is not interesting, or null if it is. */
export function whyNotThrowsOnHu(source: string): string | null {
  try {
    const classes = new Parser(tokenize(source)).compilationUnit();
    const checker = new Checker(classes);
    checker.check();
    return launch(classes, checker);
  } catch (error) {
    if (error instanceof Rejected) return error.message;
    throw error;
  }
}

/** The candidate does not compile, does not run as expected, or is more than the model knows. */
class Rejected extends Error {}

const outside = (what: string): Rejected => new Rejected(`outside the model: ${what}`);
const compileError = (what: string): Rejected => new Rejected(`does not compile: ${what}`);

// ---------------------------------------------------------------------------------------------
// Tokens

type TokenKind = "identifier" | "keyword" | "string" | "int" | "double" | "punct" | "eof";

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

const KEYWORDS = new Set(
  (
    "abstract assert boolean break byte case catch char class const continue default do double else " +
    "enum extends final finally float for goto if implements import instanceof int interface long " +
    "native new package private protected public return short static strictfp super switch " +
    "synchronized this throw throws transient try void volatile while true false null"
  ).split(" "),
);

const TOKEN = new RegExp(
  [
    String.raw`(?<space>\s+|//[^\n]*|/\*[\s\S]*?\*/)`,
    String.raw`(?<string>"(?:[^"\\\r\n]|\\[btnfr"'\\])*")`,
    String.raw`(?<number>\d+(?:\.\d*)?)`,
    String.raw`(?<word>[A-Za-z_$][\w$]*)`,
    String.raw`(?<punct>[{}()\[\];,.@]|[=!<>+\-*/&|^%~?:]+)`,
  ].join("|"),
  "y",
);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m?.groups) throw compileError(`cannot read ${JSON.stringify(source.slice(at, at + 10))}`);
    const g = m.groups;
    if (g["space"] !== undefined) continue;
    if (g["string"] !== undefined) tokens.push({ kind: "string", text: g["string"] });
    else if (g["number"] !== undefined) {
      // A replaced receiver, `0.concat(…)`, reads as the double `0.` and the name concat.
      const number = g["number"];
      if (/^(0|[1-9]\d*)$/.test(number)) tokens.push({ kind: "int", text: number });
      else if (/^\d+\.$/.test(number)) tokens.push({ kind: "double", text: number });
      else throw outside(`the number ${number}`);
    } else if (g["word"] !== undefined) {
      tokens.push({ kind: KEYWORDS.has(g["word"]) ? "keyword" : "identifier", text: g["word"] });
    } else tokens.push({ kind: "punct", text: g["punct"]! });
  }
  tokens.push({ kind: "eof", text: "end of file" });
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Syntax

/** A type as written: a (simple) class or primitive name and its array dimensions. */
interface TypeName {
  readonly name: string;
  readonly dims: number;
}

type Expr =
  | { readonly k: "string"; readonly value: string }
  | { readonly k: "int"; readonly value: number }
  | { readonly k: "double"; readonly value: number }
  | { readonly k: "name"; readonly id: string }
  | { readonly k: "field"; readonly target: Expr; readonly id: string }
  | { readonly k: "call"; readonly target: Expr | null; readonly id: string; readonly args: Expr[] }
  | { readonly k: "index"; readonly target: Expr; readonly index: Expr }
  | { readonly k: "new"; readonly type: TypeName; readonly args: Expr[] };

interface Declarator {
  readonly id: string;
  readonly dims: number;
  readonly init: Expr | null;
}

type Stmt =
  | { readonly k: "block"; readonly body: Stmt[] }
  | { readonly k: "if"; readonly cond: Expr; readonly then: Stmt; readonly otherwise: Stmt | null }
  | { readonly k: "return"; readonly value: Expr | null }
  | { readonly k: "throw"; readonly value: Expr }
  | { readonly k: "empty" }
  | { readonly k: "expr"; readonly value: Expr }
  | { readonly k: "local"; readonly type: TypeName; readonly vars: Declarator[] };

interface Param {
  readonly type: TypeName;
  readonly id: string;
}

interface MethodDecl {
  readonly modifiers: string[];
  /** null: void. */
  readonly result: TypeName | null;
  readonly id: string;
  readonly params: Param[];
  readonly throws: string[];
  /** null: no body (`;`). */
  readonly body: Stmt[] | null;
}

interface ClassDecl {
  readonly modifiers: string[];
  readonly id: string;
  readonly methods: MethodDecl[];
  readonly fields: { readonly modifiers: string[]; readonly type: TypeName; readonly vars: Declarator[] }[];
}

const MODIFIERS = new Set(["public", "protected", "private", "static", "abstract", "final"]);
const PRIMITIVES = new Set(["boolean", "char", "byte", "short", "int", "long", "float", "double"]);

/** Recursive descent over the Java that JavaMini.g4 covers, building the model's syntax tree. */
class Parser {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.at + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== "eof") this.at++;
    return t;
  }

  private is(text: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind !== "string" && t.kind !== "eof" && t.text === text;
  }

  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.at++;
    return true;
  }

  private expect(text: string): void {
    if (!this.accept(text)) throw this.syntaxError(`'${text}' expected`);
  }

  private syntaxError(what: string): Rejected {
    return compileError(`${what} at ${JSON.stringify(this.peek().text)}`);
  }

  private identifier(): string {
    const t = this.peek();
    if (t.kind !== "identifier") throw this.syntaxError("<identifier> expected");
    this.at++;
    return t.text;
  }

  compilationUnit(): ClassDecl[] {
    if (this.is("package") || this.is("import")) throw outside("package and import declarations");
    const classes: ClassDecl[] = [];
    while (this.peek().kind !== "eof") {
      if (this.accept(";")) continue;
      const modifiers = this.modifiers();
      if (!this.is("class")) throw this.syntaxError("class expected");
      classes.push(this.classDeclaration(modifiers));
    }
    return classes;
  }

  private modifiers(): string[] {
    const out: string[] = [];
    while (MODIFIERS.has(this.peek().text) && this.peek().kind === "keyword") out.push(this.next().text);
    return out;
  }

  private classDeclaration(modifiers: string[]): ClassDecl {
    this.expect("class");
    const id = this.identifier();
    if (this.is("extends") || this.is("implements")) throw outside("extends and implements");
    const decl: ClassDecl = { modifiers, id, methods: [], fields: [] };
    this.expect("{");
    while (!this.accept("}")) {
      if (this.peek().kind === "eof") throw this.syntaxError("'}' expected");
      if (this.accept(";")) continue;
      if (this.is("{") || (this.is("static") && this.is("{", 1))) throw outside("initializer blocks");
      const mods = this.modifiers();
      if (this.is("class")) throw outside("nested classes");
      const result = this.accept("void") ? null : this.type();
      if (result !== null && this.is("(")) throw outside("constructors");
      const name = this.identifier();
      if (this.is("(")) decl.methods.push(this.methodRest(mods, result, name));
      else if (result === null) throw this.syntaxError("'(' expected");
      else {
        decl.fields.push({ modifiers: mods, type: result, vars: this.declarators(name) });
        this.expect(";");
      }
    }
    return decl;
  }

  private methodRest(modifiers: string[], result: TypeName | null, id: string): MethodDecl {
    this.expect("(");
    const params: Param[] = [];
    if (!this.is(")")) {
      do {
        if (this.accept("final")) throw outside("final parameters");
        const type = this.type();
        params.push({ type, id: this.identifier() });
      } while (this.accept(","));
    }
    this.expect(")");
    const throws: string[] = [];
    if (this.accept("throws")) {
      do throws.push(this.qualifiedName());
      while (this.accept(","));
    }
    const body = this.accept(";") ? null : this.block();
    return { modifiers, result, id, params, throws, body };
  }

  private qualifiedName(): string {
    let name = this.identifier();
    while (this.is(".") && this.peek(1).kind === "identifier") {
      this.next();
      name += `.${this.identifier()}`;
    }
    return name;
  }

  private type(): TypeName {
    const name = PRIMITIVES.has(this.peek().text) ? this.next().text : this.qualifiedName();
    let dims = 0;
    while (this.is("[") && this.is("]", 1)) {
      this.at += 2;
      dims++;
    }
    return { name, dims };
  }

  private declarators(first: string): Declarator[] {
    const vars: Declarator[] = [];
    let id = first;
    for (;;) {
      let dims = 0;
      while (this.accept("[")) {
        this.expect("]");
        dims++;
      }
      let init: Expr | null = null;
      if (this.accept("=")) {
        if (this.is("{")) throw outside("array initializers");
        init = this.expression();
      }
      vars.push({ id, dims, init });
      if (!this.accept(",")) return vars;
      id = this.identifier();
    }
  }

  private block(): Stmt[] {
    this.expect("{");
    const body: Stmt[] = [];
    while (!this.accept("}")) {
      if (this.peek().kind === "eof") throw this.syntaxError("'}' expected");
      body.push(this.blockStatement());
    }
    return body;
  }

  /** A local variable declaration starts with a type and a name; anything else is a statement. */
  private blockStatement(): Stmt {
    if (this.is("final")) throw outside("final locals");
    const start = this.at;
    const first = this.peek();
    if (first.kind === "identifier" || PRIMITIVES.has(first.text)) {
      const type = this.type();
      if (this.peek().kind === "identifier") {
        const vars = this.declarators(this.identifier());
        this.expect(";");
        return { k: "local", type, vars };
      }
      this.at = start;
    }
    return this.statement();
  }

  private statement(): Stmt {
    if (this.is("{")) return { k: "block", body: this.block() };
    if (this.accept("if")) {
      this.expect("(");
      const cond = this.expression();
      this.expect(")");
      const then = this.statement();
      const otherwise = this.accept("else") ? this.statement() : null;
      return { k: "if", cond, then, otherwise };
    }
    if (this.accept("return")) {
      const value = this.is(";") ? null : this.expression();
      this.expect(";");
      return { k: "return", value };
    }
    if (this.accept("throw")) {
      const value = this.expression();
      this.expect(";");
      return { k: "throw", value };
    }
    if (this.accept(";")) return { k: "empty" };
    const t = this.peek();
    if (t.kind === "keyword" && !["new", "this", "super", "true", "false", "null"].includes(t.text)) {
      if (["for", "while", "do", "break", "continue", "else"].includes(t.text)) throw outside(t.text);
      throw this.syntaxError("illegal start of statement");
    }
    const value = this.expression();
    this.expect(";");
    return { k: "expr", value };
  }

  /** Primaries with their `.name`, `.call(…)` and `[index]` suffixes; no operators. */
  private expression(): Expr {
    let e = this.primary();
    for (;;) {
      if (this.accept(".")) {
        const id = this.identifier();
        e = this.is("(") ? { k: "call", target: e, id, args: this.args() } : { k: "field", target: e, id };
      } else if (this.accept("[")) {
        const index = this.expression();
        this.expect("]");
        e = { k: "index", target: e, index };
      } else break;
    }
    const t = this.peek();
    if (t.kind === "punct" && !["(", ")", "[", "]", "{", "}", ";", ",", "."].includes(t.text)) {
      throw outside(`the operator ${t.text}`);
    }
    return e;
  }

  private primary(): Expr {
    const t = this.peek();
    if (t.kind === "string") {
      this.next();
      return { k: "string", value: unescape(t.text.slice(1, -1)) };
    }
    if (t.kind === "int" || t.kind === "double") {
      this.next();
      return { k: t.kind, value: Number(t.text) };
    }
    if (t.kind === "identifier") {
      this.next();
      return this.is("(")
        ? { k: "call", target: null, id: t.text, args: this.args() }
        : { k: "name", id: t.text };
    }
    if (this.accept("new")) {
      const type = this.type();
      if (type.dims > 0 || this.is("[")) throw outside("arrays made with new");
      return { k: "new", type, args: this.args() };
    }
    if (["(", "this", "super", "true", "false", "null"].includes(t.text)) throw outside(t.text);
    throw this.syntaxError("illegal start of expression");
  }

  private args(): Expr[] {
    this.expect("(");
    const args: Expr[] = [];
    if (!this.is(")")) {
      do args.push(this.expression());
      while (this.accept(","));
    }
    this.expect(")");
    return args;
  }
}

function unescape(text: string): string {
  const map: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r" };
  return text.replace(/\\(.)/g, (_, c: string) => map[c] ?? c);
}

// ---------------------------------------------------------------------------------------------
// Types and the library the reductions can reach

/**
 * A type: "int", "boolean", "void", a class name ("String", "Exception", "PrintStream", a declared
 * class) or an array type ("String[]"). Class names of java.lang the input's words can name:
 * String, Exception, System (and Object, Throwable as supertypes).
 */
type Type = string;

const LIBRARY_CLASSES = new Set(["Object", "String", "Throwable", "Exception", "System"]);
const SUPERCLASS: Record<string, string> = {
  String: "Object",
  Throwable: "Object",
  Exception: "Throwable",
  System: "Object",
  PrintStream: "Object",
};

const isPrimitive = (t: Type): boolean => PRIMITIVES.has(t) || t === "void";

function isSubtype(t: Type, of: Type): boolean {
  if (t === of) return true;
  if (isPrimitive(t) || isPrimitive(of)) return false;
  if (of === "Object") return true;
  for (let s = SUPERCLASS[t]; s !== undefined; s = SUPERCLASS[s]) if (s === of) return true;
  return false;
}

/** Assignment and method invocation contexts: subtyping, or boxing a primitive into Object. */
const assignable = (from: Type, to: Type): boolean =>
  isSubtype(from, to) || (to === "Object" && from !== "void" && isPrimitive(from));

/** Checked: a Throwable that is not a RuntimeException or an Error (none of which can be named here). */
const isChecked = (t: Type): boolean => isSubtype(t, "Throwable");

interface Signature {
  readonly params: readonly Type[];
  readonly result: Type;
}

/** Public instance methods of the library types, as far as the input's words reach. */
function libraryMethods(receiver: Type, id: string): Signature[] {
  if (id === "equals") return [{ params: ["Object"], result: "boolean" }];
  if (receiver === "String" && id === "concat") return [{ params: ["String"], result: "String" }];
  if (receiver === "PrintStream" && id === "println") {
    const overloads = ["boolean", "char", "int", "long", "float", "double", "char[]", "String", "Object"];
    return [{ params: [], result: "void" }, ...overloads.map((p) => ({ params: [p], result: "void" }))];
  }
  return [];
}

/** Constructors of the library classes `new` can name here. */
function libraryConstructors(type: Type): Signature[] | null {
  switch (type) {
    case "Object":
      return [{ params: [], result: type }];
    case "String":
      return [
        { params: [], result: type },
        { params: ["String"], result: type },
      ];
    case "Throwable":
    case "Exception":
      return [[], ["String"], ["String", "Throwable"], ["Throwable"]].map((params) => ({
        params,
        result: type,
      }));
    default:
      return null;
  }
}

/**
 * Overload resolution (JLS 15.12.2, without varargs): the applicable signatures by subtyping alone,
 * else with boxing; of those, the one more specific than all others.
 */
function resolve<S extends Signature>(candidates: readonly S[], args: readonly Type[], what: string): S {
  const arity = candidates.filter((c) => c.params.length === args.length);
  for (const allowed of [isSubtype, assignable]) {
    const applicable = arity.filter((c) => c.params.every((p, i) => allowed(args[i]!, p)));
    if (applicable.length === 0) continue;
    const best = applicable.filter((c) =>
      applicable.every((o) => c.params.every((p, i) => isSubtype(p, o.params[i]!))),
    );
    if (best.length !== 1) throw compileError(`reference to ${what} is ambiguous`);
    return best[0]!;
  }
  throw compileError(`no ${what} applicable to (${args.join(", ")})`);
}

// ---------------------------------------------------------------------------------------------
// Checking what javac checks

interface Variable {
  readonly type: Type;
  readonly initialized: boolean;
}

interface MethodContext {
  readonly cls: ClassDecl;
  readonly method: MethodDecl;
  readonly isStatic: boolean;
  readonly result: Type;
  readonly throws: readonly Type[];
  readonly scopes: Map<string, Variable>[];
}

interface UserMethod extends Signature {
  readonly decl: MethodDecl;
  readonly isStatic: boolean;
  readonly throws: readonly Type[];
}

/** An expression's meaning: a value of some type, or a class named as the target of `.`. */
type Meaning = { readonly value: Type } | { readonly cls: Type };

class Checker {
  private readonly classNames: Set<string>;
  /** The declared method each call of one resolves to, for the interpreter. */
  readonly calls = new Map<Expr, MethodDecl>();
  /** Names that denote a class (the `System` of `System.out`), not a variable. */
  readonly classRefs = new Set<Expr>();

  constructor(private readonly classes: readonly ClassDecl[]) {
    this.classNames = new Set(classes.map((c) => c.id));
  }

  check(): void {
    const seen = new Set<string>();
    for (const cls of this.classes) {
      if (seen.has(cls.id)) throw compileError(`duplicate class ${cls.id}`);
      seen.add(cls.id);
      checkModifiers(cls.modifiers, ["public", "abstract", "final"], `class ${cls.id}`);
      if (cls.modifiers.includes("public") && cls.id !== "LocalizedPi") {
        throw compileError(`class ${cls.id} is public, should be declared in a file named ${cls.id}.java`);
      }
      for (const field of cls.fields) {
        this.type(field.type);
        throw outside("fields");
      }
      const methods = this.methodsOf(cls);
      methods.forEach((m, i) => {
        const same = methods.findIndex((o) => o.decl.id === m.decl.id && o.params.join() === m.params.join());
        if (same !== i) throw compileError(`method ${m.decl.id}(${m.params.join(",")}) is already defined`);
      });
      for (const m of methods) this.checkMethod(cls, m);
    }
  }

  private methodsOf(cls: ClassDecl): UserMethod[] {
    return cls.methods.map((decl) => {
      const what = `method ${decl.id}`;
      checkModifiers(decl.modifiers, ["public", "protected", "private", "static", "abstract", "final"], what);
      if (decl.modifiers.includes("abstract")) throw outside("abstract methods");
      const throws = decl.throws.map((name) => {
        const t = this.type({ name, dims: 0 });
        if (!isSubtype(t, "Throwable"))
          throw compileError(`incompatible types: ${t} cannot be converted to Throwable`);
        return t;
      });
      return {
        decl,
        isStatic: decl.modifiers.includes("static"),
        params: decl.params.map((p) => this.type(p.type)),
        result: decl.result === null ? "void" : this.type(decl.result),
        throws,
      };
    });
  }

  private type(t: TypeName): Type {
    if (t.name.includes(".")) throw outside("qualified type names");
    if (!PRIMITIVES.has(t.name) && !LIBRARY_CLASSES.has(t.name) && !this.classNames.has(t.name)) {
      throw compileError(`cannot find symbol: class ${t.name}`);
    }
    return t.name + "[]".repeat(t.dims);
  }

  private checkMethod(cls: ClassDecl, m: UserMethod): void {
    if (m.decl.body === null) throw compileError(`missing method body in ${m.decl.id}`);
    const params = new Map<string, Variable>();
    m.decl.params.forEach((p, i) => {
      if (params.has(p.id)) throw compileError(`variable ${p.id} is already defined in method ${m.decl.id}`);
      params.set(p.id, { type: m.params[i]!, initialized: true });
    });
    const ctx: MethodContext = {
      cls,
      method: m.decl,
      isStatic: m.isStatic,
      result: m.result,
      throws: m.throws,
      scopes: [params],
    };
    const completes = this.block(ctx, m.decl.body);
    if (completes && m.result !== "void") throw compileError(`missing return statement in ${m.decl.id}`);
  }

  /** Checks the statements; whether the block can complete normally (JLS 14.22). */
  private block(ctx: MethodContext, body: readonly Stmt[]): boolean {
    ctx.scopes.push(new Map());
    let reachable = true;
    for (const s of body) {
      if (!reachable) throw compileError("unreachable statement");
      reachable = this.statement(ctx, s);
    }
    ctx.scopes.pop();
    return reachable;
  }

  private statement(ctx: MethodContext, s: Stmt): boolean {
    switch (s.k) {
      case "block":
        return this.block(ctx, s.body);
      case "empty":
        return true;
      case "expr":
        if (s.value.k !== "call" && s.value.k !== "new") throw compileError("not a statement");
        this.expression(ctx, s.value, true);
        return true;
      case "local": {
        const scope = ctx.scopes[ctx.scopes.length - 1]!;
        for (const v of s.vars) {
          if (ctx.scopes.some((sc) => sc.has(v.id))) {
            throw compileError(`variable ${v.id} is already defined in method ${ctx.method.id}`);
          }
          const type = this.type({ name: s.type.name, dims: s.type.dims + v.dims });
          // A local is in scope in its own initializer, not yet assigned there.
          scope.set(v.id, { type, initialized: false });
          if (v.init !== null) {
            const init = this.value(ctx, v.init);
            if (!assignable(init, type))
              throw compileError(`incompatible types: ${init} cannot be converted to ${type}`);
            scope.set(v.id, { type, initialized: true });
          }
        }
        return true;
      }
      case "if": {
        const cond = this.value(ctx, s.cond);
        if (cond !== "boolean")
          throw compileError(`incompatible types: ${cond} cannot be converted to boolean`);
        const then = this.statement(ctx, s.then);
        return s.otherwise === null ? true : this.statement(ctx, s.otherwise) || then;
      }
      case "return":
        if (s.value === null) {
          if (ctx.result !== "void") throw compileError("missing return value");
        } else {
          if (ctx.result === "void") throw compileError("incompatible types: unexpected return value");
          const value = this.value(ctx, s.value);
          if (!assignable(value, ctx.result)) {
            throw compileError(`incompatible types: ${value} cannot be converted to ${ctx.result}`);
          }
        }
        return false;
      case "throw": {
        const thrown = this.value(ctx, s.value);
        if (!isSubtype(thrown, "Throwable"))
          throw compileError(`incompatible types: ${thrown} cannot be converted to Throwable`);
        this.mayThrow(ctx, thrown);
        return false;
      }
    }
  }

  private mayThrow(ctx: MethodContext, thrown: Type): void {
    if (isChecked(thrown) && !ctx.throws.some((t) => isSubtype(thrown, t))) {
      throw compileError(`unreported exception ${thrown}; must be caught or declared to be thrown`);
    }
  }

  /** The type of an expression used as a value (void only where `voidOk`: an expression statement). */
  private value(ctx: MethodContext, e: Expr, voidOk = false): Type {
    const meaning = this.expression(ctx, e, voidOk);
    if ("cls" in meaning) throw compileError(`cannot find symbol: variable ${meaning.cls}`);
    return meaning.value;
  }

  private expression(ctx: MethodContext, e: Expr, voidOk = false): Meaning {
    const result = this.meaning(ctx, e);
    if ("value" in result && result.value === "void" && !voidOk)
      throw compileError("'void' type not allowed here");
    return result;
  }

  private meaning(ctx: MethodContext, e: Expr): Meaning {
    switch (e.k) {
      case "string":
        return { value: "String" };
      case "int":
      case "double":
        return { value: e.k };
      case "name": {
        for (let i = ctx.scopes.length - 1; i >= 0; i--) {
          const v = ctx.scopes[i]!.get(e.id);
          if (v === undefined) continue;
          if (!v.initialized) throw compileError(`variable ${e.id} might not have been initialized`);
          return { value: v.type };
        }
        if (LIBRARY_CLASSES.has(e.id) || this.classNames.has(e.id)) {
          this.classRefs.add(e);
          return { cls: e.id };
        }
        throw compileError(`cannot find symbol: variable ${e.id}`);
      }
      case "field": {
        const target = this.expression(ctx, e.target);
        if ("cls" in target) {
          if (target.cls === "System" && e.id === "out") return { value: "PrintStream" };
        } else if (target.value.endsWith("[]") && e.id === "length") {
          return { value: "int" };
        } else if (isPrimitive(target.value)) {
          throw compileError(`${target.value} cannot be dereferenced`);
        }
        throw compileError(`cannot find symbol: variable ${e.id}`);
      }
      case "index": {
        const target = this.value(ctx, e.target);
        if (!target.endsWith("[]")) throw compileError(`array required, but ${target} found`);
        const index = this.value(ctx, e.index);
        if (!["int", "short", "char", "byte"].includes(index)) {
          throw compileError(`incompatible types: ${index} cannot be converted to int`);
        }
        return { value: target.slice(0, -2) };
      }
      case "new": {
        const type = this.type(e.type);
        const args = e.args.map((a) => this.value(ctx, a));
        if (this.classNames.has(type)) {
          resolve([{ params: [], result: type }], args, `constructor ${type}`);
        } else {
          const ctors = libraryConstructors(type);
          if (ctors === null) throw compileError(`${type} cannot be instantiated here`);
          resolve(ctors, args, `constructor ${type}`);
        }
        return { value: type };
      }
      case "call":
        return { value: this.call(ctx, e) };
    }
  }

  private call(ctx: MethodContext, e: Extract<Expr, { k: "call" }>): Type {
    const target = e.target === null ? null : this.expression(ctx, e.target);
    const args = e.args.map((a) => this.value(ctx, a));
    const what = `method ${e.id}`;
    // Unqualified, or qualified by a declared class: the class's methods.
    const own =
      target === null ? ctx.cls : "cls" in target ? this.classes.find((c) => c.id === target.cls) : undefined;
    if (own !== undefined) {
      const candidates = this.methodsOf(own).filter((m) => m.decl.id === e.id);
      if (candidates.length === 0) throw compileError(`cannot find symbol: ${what}`);
      const m = resolve(candidates, args, what);
      const staticContext = target !== null || ctx.isStatic;
      if (!m.isStatic && staticContext) {
        throw compileError(`non-static ${what} cannot be referenced from a static context`);
      }
      for (const t of m.throws) this.mayThrow(ctx, t);
      this.calls.set(e, m.decl);
      return m.result;
    }
    if (target === null || "cls" in target) throw compileError(`cannot find symbol: ${what}`);
    if (isPrimitive(target.value)) throw compileError(`${target.value} cannot be dereferenced`);
    if (this.classNames.has(target.value)) throw outside("instances of declared classes");
    const candidates = libraryMethods(target.value, e.id);
    if (candidates.length === 0) throw compileError(`cannot find symbol: ${what} in ${target.value}`);
    return resolve(candidates, args, what).result;
  }
}

function checkModifiers(modifiers: readonly string[], allowed: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const m of modifiers) {
    if (seen.has(m)) throw compileError(`repeated modifier ${m}`);
    if (!allowed.includes(m)) throw compileError(`modifier ${m} not allowed here (${what})`);
    seen.add(m);
  }
  if (["public", "protected", "private"].filter((m) => seen.has(m)).length > 1) {
    throw compileError(`illegal combination of modifiers (${what})`);
  }
}

// ---------------------------------------------------------------------------------------------
// Running `java LocalizedPi hu`

/** An exception thrown in the running program. */
class JavaException {
  constructor(
    readonly type: Type,
    readonly message: string | null,
  ) {}

  toString(): string {
    return `java.lang.${this.type}${this.message === null ? "" : `: ${this.message}`}`;
  }
}

/** A value: a String, an int, a boolean, a String[], an exception, System.out or another object. */
type Value = string | number | boolean | Value[] | JavaException | { readonly type: Type };

const SYSTEM_OUT = { type: "PrintStream" };

class Returned {
  constructor(readonly value: Value | undefined) {}
}

/** A Java exception propagating through the interpreter. */
class Thrown extends Error {
  constructor(readonly exception: JavaException) {
    super(exception.toString());
  }
}

const NO_MAIN = "no class LocalizedPi with a public main(String[])";

/**
 * The launcher: class LocalizedPi with `public static void main(String[])`, called with {"hu"}; the
 * program is interesting if main ends with java.lang.Exception("Unsupported locale").
 */
function launch(classes: readonly ClassDecl[], checker: Checker): string | null {
  const cls = classes.find((c) => c.id === "LocalizedPi");
  if (cls === undefined) return NO_MAIN;
  const main = cls.methods.find(
    (m) =>
      m.id === "main" &&
      m.modifiers.includes("public") &&
      m.params.length === 1 &&
      m.params[0]!.type.name === "String" &&
      m.params[0]!.type.dims === 1,
  );
  if (main === undefined) return NO_MAIN;
  if (!main.modifiers.includes("static") || main.result !== null) return "main is not static void";
  try {
    new Interpreter(checker).invoke(main, [["hu"]]);
    return "main returned normally";
  } catch (error) {
    if (!(error instanceof Thrown)) throw error;
    const e = error.exception;
    return e.type === "Exception" && e.message === "Unsupported locale" ? null : `threw ${e.toString()}`;
  }
}

class Interpreter {
  private depth = 0;

  constructor(private readonly checker: Checker) {}

  invoke(method: MethodDecl, args: Value[]): Value | undefined {
    if (++this.depth > 1000) throw new Thrown(new JavaException("StackOverflowError", null));
    const locals = new Map<string, Value>();
    method.params.forEach((p, i) => locals.set(p.id, args[i]!));
    try {
      for (const s of method.body!) {
        const r = this.run(s, locals);
        if (r instanceof Returned) return r.value;
      }
      return undefined;
    } finally {
      this.depth--;
    }
  }

  /** Runs a statement: a Returned when it returns. Locals are unique per method (checked). */
  private run(s: Stmt, locals: Map<string, Value>): Returned | undefined {
    switch (s.k) {
      case "block":
        for (const inner of s.body) {
          const r = this.run(inner, locals);
          if (r) return r;
        }
        return undefined;
      case "empty":
        return undefined;
      case "expr":
        this.eval(s.value, locals);
        return undefined;
      case "local":
        for (const v of s.vars) if (v.init !== null) locals.set(v.id, this.eval(v.init, locals));
        return undefined;
      case "if":
        if (this.eval(s.cond, locals) === true) return this.run(s.then, locals);
        return s.otherwise === null ? undefined : this.run(s.otherwise, locals);
      case "return":
        return new Returned(s.value === null ? undefined : this.eval(s.value, locals));
      case "throw":
        throw new Thrown(this.eval(s.value, locals) as JavaException);
    }
  }

  private eval(e: Expr, locals: Map<string, Value>): Value {
    switch (e.k) {
      case "string":
      case "int":
      case "double":
        return e.value;
      case "name":
        return locals.get(e.id)!;
      case "field":
        if (this.checker.classRefs.has(e.target)) return SYSTEM_OUT; // the only static field known
        return (this.eval(e.target, locals) as Value[]).length; // the only instance field known
      case "index": {
        const array = this.eval(e.target, locals) as Value[];
        const i = this.eval(e.index, locals) as number;
        if (i < 0 || i >= array.length) {
          throw new Thrown(
            new JavaException(
              "ArrayIndexOutOfBoundsException",
              `Index ${i} out of bounds for length ${array.length}`,
            ),
          );
        }
        return array[i]!;
      }
      case "new": {
        const args = e.args.map((a) => this.eval(a, locals));
        const type = e.type.name;
        if (type === "Exception" || type === "Throwable") {
          const first = args[0];
          return new JavaException(type, typeof first === "string" ? first : null);
        }
        if (type === "String") return typeof args[0] === "string" ? args[0] : "";
        return { type };
      }
      case "call": {
        const declared = this.checker.calls.get(e);
        const receiver = declared || e.target === null ? undefined : this.eval(e.target, locals);
        const args = e.args.map((a) => this.eval(a, locals));
        if (declared) return this.invoke(declared, args) ?? SYSTEM_OUT;
        if (e.id === "equals") return receiver === args[0];
        if (e.id === "concat") return (receiver as string) + (args[0] as string);
        return SYSTEM_OUT; // println prints; a void result is never used
      }
    }
  }
}
