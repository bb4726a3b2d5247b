/**
 * Runs the antlr-ng tool in-process on a user's `.g4` files and returns the lexer's and parser's
 * ATNs and vocabularies as plain data. No Java, no generated code.
 *
 * antlr-ng 1.0.10's package entry point does not load (its index re-exports a type-only name), and
 * its `exports` map blocks deep imports, so the tool module is imported by file URL from the
 * package's directory. It takes about a second to import, so it is imported only when a grammar is
 * not in the cache.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ATNSerializer, type ATN } from "antlr4ng";
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
  readonly line: number;
  readonly column: number;
}

interface ToolInstance {
  readonly errorManager: {
    addListener(l: {
      info(m: string): void;
      error(m: ToolMessage): void;
      warning(m: ToolMessage): void;
    }): void;
    getMessageTemplate(m: ToolMessage): { render(): string } | null;
  };
  loadGrammar(fileName: string): ToolGrammar | undefined;
  process(g: ToolGrammar, genCode: boolean): void;
  getNumErrors(): number;
}

type ToolClass = new (args: string[]) => ToolInstance;

let toolClass: Promise<ToolClass> | undefined;

/** Imports antlr-ng's Tool class (once). */
function importTool(): Promise<ToolClass> {
  toolClass ??= (async () => {
    // Resolves to <package>/dist/src/index.js without evaluating it.
    const entry = fileURLToPath(import.meta.resolve("antlr-ng"));
    const module = (await import(pathToFileURL(join(dirname(entry), "Tool.js")).href)) as { Tool: ToolClass };
    return module.Tool;
  })();
  return toolClass;
}

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
  const Tool = await importTool();
  const paths = files.map((f) => resolve(f));
  const messages: string[] = [];
  // The tool's argument parser wants grammar files; --lib lets it find imported grammars beside them.
  const tool = new Tool(["--lib", dirname(paths[0]!), ...paths]);
  const collect = (m: ToolMessage): void => {
    messages.push(tool.errorManager.getMessageTemplate(m)?.render() ?? `${m.fileName}:${m.line}:${m.column}`);
  };
  tool.errorManager.addListener({ info: () => undefined, error: collect, warning: () => undefined });
  const fail = (what: string): never => {
    throw new WhittleError("grammar", `${what}:\n${messages.join("\n") || "(no details from the tool)"}`);
  };

  const grammars = paths.map((p) => {
    const g = tool.loadGrammar(p);
    if (!g || tool.getNumErrors() > 0) fail(`cannot read grammar ${p}`);
    return g!;
  });

  let lexer: ToolGrammar | undefined;
  let parser: ToolGrammar | undefined;
  if (grammars.length === 1) {
    const g = grammars[0]!;
    if (!g.isCombined()) {
      fail(
        `${paths[0]} is a ${g.isLexer() ? "lexer" : "parser"} grammar; give a combined grammar, or a lexer and a parser`,
      );
    }
    tool.process(g, false);
    if (tool.getNumErrors() > 0) fail(`grammar ${paths[0]} has errors`);
    lexer = g.implicitLexer;
    parser = g;
    if (!lexer) fail(`grammar ${paths[0]} defines no tokens`);
  } else {
    lexer = grammars.find((g) => g.isLexer());
    parser = grammars.find((g) => g.isParser());
    if (!lexer || !parser) fail("with two grammar files, give one lexer grammar and one parser grammar");
    tool.process(lexer!, false);
    if (tool.getNumErrors() > 0) fail(`grammar ${lexer!.fileName} has errors`);
    // The tool would read tokenVocab from a generated .tokens file; take the vocabulary from the lexer.
    const lex = lexer!;
    parser!.importTokensFromTokensFile = () => parser!.importVocab(lex);
    tool.process(parser!, false);
    if (tool.getNumErrors() > 0) fail(`grammar ${parser!.fileName} has errors`);
  }
  return { lexer: lexerData(lexer!), parser: recognizerData(parser!) };
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
