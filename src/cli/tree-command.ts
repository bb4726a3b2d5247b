import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { OutOfMemoryError, WhittleError } from "../errors.js";
import { describeTreeChunks, treeJsonChunks } from "../tree/describe.js";
import { detectLanguage } from "../grammar/tree-sitter/detect.js";
import { BUILT_IN_LANGUAGES, type BuiltInLanguage } from "../grammar/tree-sitter/languages.js";
import { buildProgram, repeatable, transformsOf, UsageError } from "./args.js";
import { applyConfigFile, configKeys } from "./config-file.js";
import { EXIT } from "./exit.js";
import { treeSetup } from "./plan.js";

/**
 * `whittle tree INPUT [--grammar G.g4 [--start RULE] | --format FILE | --language NAME] [--json]`
 * (by default the language of INPUT's extension or #! line): prints the tree of INPUT as the tree
 * passes see it (after the transforms): kinds, byte spans, removable marks, replacements. For
 * debugging a grammar or a replacements file; tools read `--json`. The options it shares with the
 * main command also come from the same config file (config-file.ts), so the tree is the one a run
 * with that file reduces.
 */
export async function runTreeCommand(
  argv: readonly string[],
  out: NodeJS.WritableStream,
  say: (text: string) => void,
): Promise<number> {
  const program = treeProgram(true).configureOutput({
    writeErr: (text) => say(text.trimEnd().replace(/^error: /, "error: ")),
  });
  try {
    program.parse([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.done : EXIT.usage;
    throw error;
  }
  let configured: Command;
  try {
    // The main command's config file, for the options tree has too (grammar, language, transforms…).
    configured = applyConfigFile(
      program,
      argv,
      [],
      () => treeProgram(false),
      configKeys(buildProgram("")),
    ).program;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    say(`error: ${error.message}`);
    return EXIT.usage;
  }
  const o = configured.opts();
  const [input] = program.processedArgs as [string];
  try {
    const grammar = (o["grammar"] as string[] | undefined) ?? [];
    const format = o["format"] as string | undefined;
    let language = o["language"] as BuiltInLanguage | undefined;
    let detected = false;
    let bytes: Uint8Array;
    try {
      bytes = await readFile(resolve(input));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `cannot read input ${input}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`,
      );
    }
    if (grammar.length === 0 && format === undefined && language === undefined) {
      language = detectLanguage(basename(input), bytes)?.language;
      detected = true;
      if (language === undefined) {
        throw new UsageError(
          `whittle tree needs a grammar: ${basename(input)} has no extension or #! line of a built-in language; add --grammar FILE (or --format FILE, or --language NAME)`,
        );
      }
    }
    const { frontEnd, syntaxErrors } = await treeSetup(
      {
        atomGiven: false,
        grammar,
        format,
        language,
        start: o["start"] as string | undefined,
        grammarHelpers: o["grammarHelpers"] as string | undefined,
        // A detected language's tree is error-tolerant, as the reduction's is (see treeSetup).
        allowSyntaxErrors: o["allowSyntaxErrors"] === true || detected,
        replacements: o["replacements"] as string | undefined,
        hoistCompatible: undefined,
        transforms: transformsOf(o),
      },
      process.cwd(),
      bytes,
      basename(input),
      false, // the tree or an error: never a fallback to text
      say,
    );
    if (syntaxErrors > 0) say(`${input}: ${syntaxErrors} syntax errors, parsed with error recovery`);
    const { tree } = frontEnd!.parse(bytes);
    await writeChunks(out, o["json"] === true ? treeJsonChunks(tree) : describeTreeChunks(tree));
    if (o["json"] === true) out.write("\n");
    return EXIT.done;
  } catch (error) {
    if (error instanceof OutOfMemoryError) {
      say(`error: ${error.message}`);
      return EXIT.failed;
    }
    if (error instanceof UsageError || error instanceof WhittleError) {
      say(`error: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
}

/** The tree command's options; `inputRequired` false for the programs that check a config file's words. */
function treeProgram(inputRequired: boolean): Command {
  return new Command("whittle tree")
    .description("Print the parse tree of INPUT as whittle's tree passes see it.")
    .argument(inputRequired ? "<input>" : "[input]", "the file to parse")
    .addOption(
      new Option("--grammar <file>", "ANTLR v4 grammar file (repeat for lexer + parser)").argParser(
        repeatable,
      ),
    )
    .addOption(new Option("--format <file>", "format file: grammars, start rules, replacements, islands"))
    .addOption(
      new Option(
        "--language <name>",
        "built-in language (tree-sitter), instead of --grammar (default: from the extension or #! line)",
      ).choices(BUILT_IN_LANGUAGES),
    )
    .addOption(new Option("--start <rule>", "start rule (default: the parser's first rule)"))
    .addOption(new Option("--grammar-helpers <module>", "helpers the grammar's predicates call"))
    .addOption(new Option("--allow-syntax-errors", "parse with ANTLR's error recovery"))
    .addOption(new Option("--replacements <file>", "minimal replacements per rule or token"))
    .addOption(new Option("--no-squeeze", "keep chains of single-child nodes"))
    .addOption(new Option("--no-flatten-recursion", "keep recursion nested"))
    .addOption(new Option("--no-skip-unremovable", "do not mark nodes that equal their replacement"))
    .addOption(new Option("--json", "print the tree as JSON"))
    .addOption(
      new Option(
        "--config <file>",
        "read the options above from this JSON file instead of the config file found from INPUT's directory upward",
      ),
    )
    .addOption(new Option("--no-config", "read no config file"))
    .exitOverride();
}

/** Writes the pieces in turn, waiting whenever `out` asks to (a pipe to a slow reader). */
async function writeChunks(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  for (const chunk of chunks) {
    if (out.write(chunk)) continue;
    await new Promise<void>((resolve, reject) => {
      const done = (error?: unknown): void => {
        out.off("drain", done);
        out.off("error", done);
        out.off("close", done);
        if (error instanceof Error) reject(error);
        else resolve();
      };
      out.on("drain", done);
      out.on("error", done);
      out.on("close", done);
    });
  }
}
