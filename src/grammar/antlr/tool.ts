/**
 * Runs the antlr-ng tool in-process on a user's `.g4` files and returns the lexer's and parser's
 * ATNs and vocabularies as plain data. No Java, no generated code.
 *
 * antlr-ng 1.0.10's package entry point does not load (its index re-exports a type-only name), and
 * its `exports` map blocks deep imports, so the tool module is imported by file URL from the
 * package's directory. It takes about a second to import, so it is imported only when a grammar is
 * not in the cache.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ATNSerializer, CharStream, CommonTokenStream, type ATN, type TokenSource } from "antlr4ng";
import { WhittleError } from "../../errors.js";
import type { LexerData, RecognizerData } from "./data.js";

/** The few parts of antlr-ng's `Grammar` used here. */
interface ToolGrammar {
  readonly name: string;
  fileName: string;
  readonly atn: ATN;
  readonly implicitLexer?: ToolGrammar;
  readonly channelValueToNameList: (string | null)[];
  readonly modes: Map<string, unknown>;
  readonly lexerActions: Map<{ getText(): string }, number>;
  isLexer(): boolean;
  isParser(): boolean;
  isCombined(): boolean;
  getRuleNames(): string[];
  getTokenLiteralNames(): (string | null)[];
  getTokenSymbolicNames(): (string | null)[];
  getIndexToPredicateMap(): Map<number, { getText(): string }>;
  getOptionString(key: string): string | undefined;
  importVocab(g: ToolGrammar): void;
  importTokensFromTokensFile(): void;
}

interface ToolMessage {
  readonly fileName: string;
  /** -1 when the tool gives no position. */
  readonly line: number;
  /** From 0; -1 when the tool gives none. */
  readonly column: number;
  getMessageTemplate(verbose: boolean): { render(): string };
}

/** The parsed form of a grammar file (antlr-ng's GrammarRootAST), passed on as it is. */
type GrammarAst = object;

interface ToolInstance {
  readonly errorManager: {
    addListener(l: {
      info(m: string): void;
      error(m: ToolMessage): void;
      warning(m: ToolMessage): void;
    }): void;
  };
  parseGrammar(fileName: string): GrammarAst | undefined;
  createGrammar(ast: GrammarAst): ToolGrammar;
  process(g: ToolGrammar, genCode: boolean): void;
  getNumErrors(): number;
}

type ToolClass = new (args: string[]) => ToolInstance;

let toolClass: Promise<ToolClass> | undefined;

/** Imports a module of antlr-ng's by its path below the package's `dist/src`. */
async function importFromTool<T>(path: string): Promise<T> {
  // Resolves to <package>/dist/src/index.js without evaluating it.
  const entry = fileURLToPath(import.meta.resolve("antlr-ng"));
  return (await import(pathToFileURL(join(dirname(entry), path)).href)) as T;
}

/** Imports antlr-ng's Tool class (once). */
function importTool(): Promise<ToolClass> {
  toolClass ??= importFromTool<{ Tool: ToolClass }>("Tool.js").then((module) => module.Tool);
  return toolClass;
}

/** The parts of antlr-ng's generated grammar-of-grammars lexer and parser used here. */
interface GrammarRecognizer {
  removeErrorListeners(): void;
  addErrorListener(listener: {
    syntaxError(r: unknown, s: unknown, line: number, column: number, msg: string): void;
    reportAmbiguity(): void;
    reportAttemptingFullContext(): void;
    reportContextSensitivity(): void;
  }): void;
}
interface GrammarSpecParser extends GrammarRecognizer {
  grammarSpec(): unknown;
}

/**
 * The syntax errors of the grammar files, each as `file:line:column: syntax error: text` (the
 * tool's own wording), from antlr-ng's generated grammar lexer and parser — the ones its Tool
 * parses with — without the Tool, its templates and its code generators, which take about a second
 * to import. Returns undefined when a file cannot be read: the tool reports that.
 */
async function grammarSyntaxErrors(
  paths: readonly string[],
): Promise<{ messages: string[]; files: string[] } | undefined> {
  let texts: string[];
  try {
    texts = paths.map((p) => readFileSync(p, "utf8"));
  } catch {
    return undefined;
  }
  const [{ ANTLRv4Lexer }, { ANTLRv4Parser }] = await Promise.all([
    importFromTool<{ ANTLRv4Lexer: new (input: CharStream) => GrammarRecognizer & TokenSource }>(
      "generated/ANTLRv4Lexer.js",
    ),
    importFromTool<{ ANTLRv4Parser: new (tokens: CommonTokenStream) => GrammarSpecParser }>(
      "generated/ANTLRv4Parser.js",
    ),
  ]);
  const messages: string[] = [];
  const files: string[] = [];
  paths.forEach((path, i) => {
    const listener = {
      syntaxError(_r: unknown, _s: unknown, line: number, column: number, msg: string): void {
        messages.push(`${path}:${line}:${column + 1}: ${oneLine(`syntax error: ${msg}`)}`);
      },
      reportAmbiguity: () => undefined,
      reportAttemptingFullContext: () => undefined,
      reportContextSensitivity: () => undefined,
    };
    const lexer = new ANTLRv4Lexer(CharStream.fromString(texts[i]!));
    lexer.removeErrorListeners();
    lexer.addErrorListener(listener);
    const parser = new ANTLRv4Parser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(listener);
    const before = messages.length;
    parser.grammarSpec();
    if (messages.length > before) files.push(path);
  });
  return { messages, files };
}

/** How many of the tool's errors a grammar error lists. */
const MAX_MESSAGES = 20;

export interface ToolOutput {
  readonly lexer: LexerData;
  readonly parser: RecognizerData;
}

/**
 * Processes a combined grammar, or a lexer and a parser grammar (in any order), with grammars they
 * `import` found beside them. A parser's `tokenVocab` is taken from the lexer given with it.
 */
export async function processGrammarFiles(files: readonly string[]): Promise<ToolOutput> {
  if (files.length === 0 || files.length > 2) {
    throw new WhittleError(
      "grammar",
      `expected one combined grammar or a lexer and a parser grammar, got ${files.length} files`,
    );
  }
  const paths = files.map((f) => resolve(f));
  const messages: string[] = [];
  // A file that is no grammar at all (binary, or another language) can make thousands of errors.
  const fail = (what: string): never => {
    const shown = messages.slice(0, MAX_MESSAGES);
    if (messages.length > shown.length) shown.push(`(and ${messages.length - shown.length} more errors)`);
    throw new WhittleError("grammar", `${what}:\n${shown.join("\n") || "(no details from the tool)"}`);
  };
  // Syntax errors in the given files are found, and refused, without importing the tool.
  const syntax = await grammarSyntaxErrors(paths);
  if (syntax !== undefined && syntax.files.length > 0) {
    messages.push(...syntax.messages);
    fail(`cannot read grammar ${syntax.files.join(" and ")}`);
  }
  const Tool = await importTool();
  // The tool's argument parser wants grammar files; --lib lets it find imported grammars beside them.
  const tool = new Tool(["--lib", dirname(paths[0]!), ...paths]);
  // The grammar being read or processed: named by messages that name no file.
  let current = paths[0]!;
  const collect = (m: ToolMessage): void => {
    messages.push(describeMessage(m, current, paths));
  };
  tool.errorManager.addListener({ info: () => undefined, error: collect, warning: () => undefined });
  /** Refuses the grammars for a reason of whittle's own: no tool messages to list. */
  const refuse = (what: string): never => {
    throw new WhittleError("grammar", what);
  };

  // Not the tool's loadGrammar: it hands a grammar that does not parse (no AST, the syntax errors
  // reported) on to createGrammar, which then fails with a TypeError. All files are parsed first,
  // so that the errors of both grammars of a pair are listed.
  const asts = paths.map((p) => {
    current = p;
    try {
      return tool.parseGrammar(p);
    } catch {
      return undefined; // unreadable: the tool has reported it
    }
  });
  const unreadable = paths.filter((_, i) => asts[i] === undefined);
  if (unreadable.length > 0 || tool.getNumErrors() > 0) {
    fail(`cannot read grammar ${(unreadable.length > 0 ? unreadable : paths).join(" and ")}`);
  }
  const grammars = asts.map((ast, i) => {
    current = paths[i]!;
    const g = tool.createGrammar(ast!);
    g.fileName = paths[i]!;
    return g;
  });

  let lexer: ToolGrammar | undefined;
  let parser: ToolGrammar | undefined;
  if (grammars.length === 1) {
    const g = grammars[0]!;
    if (!g.isCombined()) {
      refuse(
        `${paths[0]} is a ${g.isLexer() ? "lexer" : "parser"} grammar; give a combined grammar, or a lexer and a parser`,
      );
    }
    current = paths[0]!;
    tool.process(g, false);
    if (tool.getNumErrors() > 0) fail(`grammar ${paths[0]} has errors`);
    lexer = g.implicitLexer;
    parser = g;
    if (!lexer) refuse(`grammar ${paths[0]} defines no tokens`);
  } else {
    lexer = grammars.find((g) => g.isLexer());
    parser = grammars.find((g) => g.isParser());
    if (!lexer || !parser) refuse("with two grammar files, give one lexer grammar and one parser grammar");
    current = lexer!.fileName;
    tool.process(lexer!, false);
    if (tool.getNumErrors() > 0) fail(`grammar ${lexer!.fileName} has errors`);
    // The tool would read tokenVocab from a generated .tokens file; take the vocabulary from the lexer.
    const lex = lexer!;
    parser!.importTokensFromTokensFile = () => parser!.importVocab(lex);
    current = parser!.fileName;
    tool.process(parser!, false);
    if (tool.getNumErrors() > 0) fail(`grammar ${parser!.fileName} has errors`);
  }
  return { lexer: lexerData(lexer!), parser: recognizerData(parser!) };
}

/**
 * One of the tool's messages as `file:line:column: text`, the column counted from 1 as in the
 * input's syntax errors (the tool counts from 0). The tool names a grammar it parsed by its base name
 * and one it built by its path: a base name is taken for the given grammar of that name, else for
 * the file of that name beside `current` or the first grammar, where the tool finds imported ones. A
 * message with no file names `current`; one with no position says so.
 */
function describeMessage(m: ToolMessage, current: string, paths: readonly string[]): string {
  const text = oneLine(m.getMessageTemplate(false).render());
  let file = m.fileName || current;
  if (!isAbsolute(file)) {
    const beside = [dirname(current), dirname(paths[0]!)].map((d) => join(d, file));
    file = paths.find((p) => basename(p) === file) ?? beside.find((f) => existsSync(f)) ?? beside[0]!;
  }
  if (m.line < 0) return `${file}: ${text} (antlr-ng gives no line and column)`;
  return m.column < 0 ? `${file}:${m.line}: ${text}` : `${file}:${m.line}:${m.column + 1}: ${text}`;
}

/** One line per message: the text may quote a line break or a control character of the file. */
function oneLine(text: string): string {
  return text.replace(/\p{Cc}/gu, (c) =>
    c === "\n" ? "\\n" : c === "\t" ? "\\t" : `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

function recognizerData(g: ToolGrammar): RecognizerData {
  return {
    grammarName: g.name,
    grammarFileName: g.fileName,
    atn: ATNSerializer.getSerialized(g.atn),
    ruleNames: g.getRuleNames(),
    literalNames: g.getTokenLiteralNames(),
    symbolicNames: g.getTokenSymbolicNames(),
    predicates: [...g.getIndexToPredicateMap()].map(([i, ast]) => [i, ast.getText()] as const),
    superClass: g.getOptionString("superClass") ?? null,
  };
}

function lexerData(g: ToolGrammar): LexerData {
  return {
    ...recognizerData(g),
    // The tool's own interpreter data lists custom channels wrongly (it repeats the two predefined
    // slots as empty names); channel values 0 and 1 are predefined, custom ones follow.
    channelNames: [
      "DEFAULT_TOKEN_CHANNEL",
      "HIDDEN",
      ...g.channelValueToNameList.slice(2).map((n, i) => n ?? `CHANNEL${i + 2}`),
    ],
    modeNames: [...g.modes.keys()],
    actions: [...g.lexerActions].map(([ast, i]) => [i, ast.getText()] as const),
  };
}
