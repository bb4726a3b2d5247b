import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { languageTable } from "../grammar/tree-sitter/detect.js";
import { BUILT_IN_LANGUAGES, type BuiltInLanguage } from "../grammar/tree-sitter/languages.js";
import type { TreeTransforms } from "../tree/tree.js";
import { applyConfigFile } from "./config-file.js";
import { EXIT } from "./exit.js";
import { applyHelpGroups } from "./option-groups.js";
import { parseDuration, parseTestCount, type RunLimitOptions } from "./limits.js";
import { reduceOptionsOf, reductionFlags, type CliReduceOptions } from "./reduce-flags.js";
import { verdictFlags, verdictOptionsOf, type VerdictOptions } from "./verdict.js";
import { scheduleHelp } from "./schedule-view.js";

/** Everything the command line says, parsed and checked. */
export interface CliOptions {
  /** The input file, or "-" for stdin. */
  input: string;
  /** The test command (argv) — from `-- CMD ARGS…` or `--test SCRIPT`. */
  command: string[];
  /** The options of the reduction (REDUCE_OPTIONS), passed to reduce() and recorded in --stats. */
  reduce: CliReduceOptions;
  timeoutMs: number | undefined;
  /** --max-time and --max-tests. */
  limits: RunLimitOptions;
  output: string | undefined;
  inPlace: boolean;
  stats: string | undefined;
  /** --report: the HTML page of the run (cli/report-file.ts). */
  report: string | undefined;
  /** Where every event of the run goes as JSON lines ("-": stdout); see events-file.ts. */
  events: string | undefined;
  /** Continue an interrupted run from the journal beside the result (cli/journal.ts). */
  resume: boolean;
  quiet: boolean;
  verbose: boolean;
  /** Grammar-aware reduction: the ANTLR grammar files (a combined grammar, or lexer + parser). */
  grammar: string[];
  /** Or a format file: grammars, start rules, replacements and islands (format-file.ts). */
  format: string | undefined;
  /**
   * Or a built-in language, parsed with tree-sitter; "none" for plain line and character reduction.
   * Not given: chosen from the input's extension or #! line (see treeSetup).
   */
  language: BuiltInLanguage | "none" | undefined;
  /** Whether --atom was given: it asks for line and character reduction (see treeSetup). */
  atomGiven: boolean;
  start: string | undefined;
  grammarHelpers: string | undefined;
  allowSyntaxErrors: boolean;
  replacements: string | undefined;
  hoistCompatible: string | undefined;
  /** The pipeline, in order (empty: the default). */
  phases: string[];
  /** Whether --algorithm was given (the default grammar pipeline otherwise chooses its own). */
  algorithmGiven: boolean;
  /** The tree transforms (each on unless switched off). */
  transforms: TreeTransforms;
  /** --queue: the Redis URL the tests go to, run there by `whittle worker`s. */
  queue: string | undefined;
  /** How runs of the test are judged: --repeat/--need, --expect-…, --same-failure (verdict.ts). */
  verdict: VerdictOptions;
}

/** The tree transforms the --no-… switches leave on. */
export function transformsOf(o: Record<string, unknown>): TreeTransforms {
  return {
    squeeze: o["squeeze"] !== false,
    flattenRecursion: o["flattenRecursion"] !== false,
    skipUnremovable: o["skipUnremovable"] !== false,
  };
}

/** An option that may be given several times: its values, in order. */
export function repeatable(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A usage error: exit code 2, with a message that names what is wrong. */
export class UsageError extends Error {}

/** --help or --version was printed, or `text` is to be (--list-languages): exit 0. */
export class InfoShown extends Error {
  constructor(
    message: string,
    readonly text?: string,
  ) {
    super(message);
  }
}

const EXAMPLES = `
The test is a command that exits 0 when a candidate is still interesting (still shows the failure)
and non-zero otherwise. It runs in a fresh temporary directory holding the candidate under the
input's own file name; "{}" in its arguments is replaced by the candidate's path (appended if no
argument contains "{}"). The command starts at the first word after INPUT that is not a whittle
option, or after "--"; every word from there on is the test's, options included.

The language of INPUT comes from its extension (or its #! line): crash.js is reduced along the
syntax of JavaScript. whittle --list-languages lists them; --language NAME chooses one, and
--language none (or --atom) reduces lines and characters.

Options can also come from a config file: whittle.config.json, .whittlerc, .whittlerc.json or a
"whittle" key in package.json, the first found from INPUT's directory upward, or --config FILE.
Its keys are the long options without "--" ("split-factor": 3, "dd-star": false) and "test", the
test command as a list ("test": ["./check.sh", "{}"]); its relative paths are from its own
directory; the command line wins. --print-config shows each option's value and source.

Commands:
  whittle INPUT … CMD                reduce INPUT (this page)
  whittle tree FILE [--language L]   print FILE's syntax tree as whittle sees it

Phases (--phase, repeatable; the default pipeline chooses them by itself):
  tree:  prune, coarse, hoist, prune+hoist, hddr…, chain, biggest (each with * for a fixpoint)
  text:  line, char, glyph (visible characters), blank (runs of whitespace), token, hidden
  other: rename (consistent renaming), literal (numbers and strings shortened)

${scheduleHelp()}

INPUT "-" reads the input from stdin (all of it, before the reduction starts); its language then
comes from --language or its #! line, and the result goes to -o FILE, or else to a new file
stdin.reduced (stdin.reduced.1, … if taken; with --language, the language's extension follows) in
the current directory.

Examples:
  whittle crash.js -- ./is-interesting.sh {}
  whittle crash.js --test ./is-interesting.sh          (the script gets the path as $1)
  whittle bug.c -j 4 --atom line --timeout 10 -- /path/to/check.sh
  whittle big.json --in-place --stats stats.json -- node /abs/path/check.js {}
  generate | whittle - --language c --max-time 10m -- ./check.sh
  whittle worker redis://build1:6379/0 --jobs 8 -- ./check.sh {}   (on each machine, then:)
  whittle crash.c --queue redis://build1:6379/0 -- ./check.sh {}

Exit codes:
  0    done: the output holds a 1-minimal interesting input
  1    internal error; or the test is not repeatable: the result was not interesting when tested
       again at the end (the output holds the last result that was confirmed)
  2    usage error (bad option, missing input, test not found or not executable), or TMPDIR
       missing, not a directory, not writable or full (if it fills up during the reduction, the
       output holds the best result so far)
  3    the original input is not interesting
  4    stopped by --max-time or --max-tests: the output holds the best result so far
  130  interrupted (Ctrl-C / SIGTERM): the output holds the best result so far
  129  hang-up (SIGHUP, a closed terminal), 131 SIGQUIT (Ctrl-\\): likewise
However whittle ends, even by kill -9, no test process and no temporary directory or file of the
run outlives it by more than 2 s. A process that left its test's process group (a daemon) is found
by a file descriptor every test inherits (4, open on the run directory), its directory or its
WHITTLE_TMPDIR; one that closes every inherited descriptor, leaves the run directory, drops
WHITTLE_TMPDIR and whose parent is gone escapes.
`;

function seconds(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0.001) {
    throw new InvalidArgumentError("must be a number of seconds, at least 0.001.");
  }
  return Math.round(n * 1000);
}

export function buildProgram(version: string): Command {
  const program = new Command("whittle")
    .description("Reduce a file to a minimal version that your test still finds interesting.")
    .version(version, "-V, --version")
    .usage("[options] INPUT [options] (CMD [ARG...] | -- CMD [ARG...] | --test SCRIPT)")
    .argument("[input]", "the file to reduce (never modified, unless --in-place); - reads it from stdin")
    .argument("[command...]", "the test command and its arguments (after INPUT, or after --)")
    .addOption(new Option("--test <script>", "test script; gets the candidate's path as $1"));
  // The reduction's options come from their table (REDUCE_OPTIONS); the rest are the command line's own.
  for (const option of reductionFlags()) program.addOption(option);
  for (const option of verdictFlags()) program.addOption(option);
  program
    .addOption(
      new Option(
        "--timeout <seconds>",
        "per-test timeout (default: adaptive, from the durations of the tests; at least 0.1 s, 0.25 s on a busy machine)",
      ).argParser(seconds),
    )
    .addOption(
      new Option(
        "--max-time <duration>",
        "stop after this long (90s, 10m, 1h30m), keeping the best result so far: exit 4",
      ).argParser(parseDuration),
    )
    .addOption(
      new Option(
        "--max-tests <n>",
        "stop after n runs of the test (the initial check included), keeping the best result so far: exit 4",
      ).argParser(parseTestCount),
    )
    .addOption(
      new Option(
        "-o, --output <file>",
        "where to write the result (default INPUT.reduced.EXT, for stdin a new stdin.reduced; - for stdout)",
      ),
    )
    .addOption(new Option("--in-place", "reduce INPUT itself, after keeping INPUT.orig"))
    .addOption(
      new Option(
        "--stats <file>",
        "write a JSON summary of the run (only over an empty file or an earlier summary)",
      ),
    )
    .addOption(
      new Option(
        "--report <file>",
        "write an HTML page of the run (size charts, passes, the result beside the original), updated while running",
      ),
    )
    .addOption(
      new Option(
        "--events <file>",
        "write every event of the run as it happens, one JSON object a line (- for stdout; docs/events.md)",
      ),
    )
    .addOption(
      new Option(
        "--resume",
        "continue an interrupted run; the answers in OUTPUT.journal are not tested again",
      ),
    )
    .addOption(
      new Option(
        "--grammar <file>",
        "ANTLR v4 grammar file for tree reduction (repeat for lexer + parser)",
      ).argParser(repeatable),
    )
    .addOption(
      new Option(
        "--format <file>",
        "format file (JSON or YAML): grammars, start rules, replacements and islands, instead of --grammar",
      ),
    )
    .addOption(
      new Option(
        "--language <name>",
        "built-in language for tree reduction (tree-sitter), or none for lines and characters (default: from the extension or #! line)",
      ).choices([...BUILT_IN_LANGUAGES, "none"]),
    )
    .addOption(new Option("--list-languages", "list the built-in languages and exit"))
    .addOption(new Option("--start <rule>", "the grammar's start rule (default: the parser's first rule)"))
    .addOption(
      new Option(
        "--grammar-helpers <module>",
        "JavaScript module with the helpers the grammar's predicates call",
      ),
    )
    .addOption(
      new Option(
        "--allow-syntax-errors",
        "parse the original with ANTLR's error recovery, without the notice that it has syntax errors",
      ),
    )
    .addOption(
      new Option(
        "--replacements <file>",
        "minimal replacements per rule or token (JSON, or rule: text lines)",
      ),
    )
    .addOption(
      new Option(
        "--hoist-compatible <file>",
        "kinds that may replace each other in hoisting (JSON, or kind: other … lines)",
      ),
    )
    .addOption(
      new Option(
        "--phase <phase>",
        "a step of the pipeline, repeatable: prune, coarse, hoist, prune+hoist, hddr…, chain, biggest, each with * for a fixpoint; line, char, glyph, blank, token, hidden; rename, literal",
      ).argParser(repeatable),
    )
    .addOption(new Option("--no-squeeze", "keep chains of single-child tree nodes"))
    .addOption(new Option("--no-flatten-recursion", "keep left and right recursion nested"))
    .addOption(new Option("--no-skip-unremovable", "also try nodes whose text equals their replacement"))
    .addOption(
      new Option(
        "--queue <url>",
        "send each test to the Redis queue at redis://HOST:PORT/DB (rediss:// for TLS), run by `whittle worker URL -- CMD` on any machine; tests in flight: -j, or the workers' capacity",
      ),
    )
    .addOption(new Option("-q, --quiet", "print nothing but errors"))
    .addOption(new Option("-v, --verbose", "print every test and improvement"))
    .addOption(
      new Option(
        "--config <file>",
        'read options from this JSON file instead of searching for whittle.config.json, .whittlerc, .whittlerc.json or a "whittle" key in package.json from INPUT\'s directory upward',
      ),
    )
    .addOption(new Option("--no-config", "read no config file"))
    .addOption(new Option("--print-config", "print each option, its value and where it came from, and exit"))
    .addHelpText("after", EXAMPLES);
  applyHelpGroups(program);
  program
    .showHelpAfterError("(run whittle --help for usage)")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  return program;
}

/**
 * Splits argv into whittle's own words and the test command. whittle's options may come before and
 * after INPUT; the test command starts at the first word after INPUT that is not a whittle option
 * (or right after `--`), and every word from there on belongs to the test, options included:
 * `whittle in.txt -o x grep -v BUG` runs `grep -v BUG`.
 */
export function splitCommand(
  argv: readonly string[],
  program: Command,
): { own: string[]; command: string[] } {
  const takesValue = new Map<string, boolean>();
  for (const option of program.options) {
    const needsValue = option.required || option.optional;
    if (option.long) takesValue.set(option.long, needsValue);
    if (option.short) takesValue.set(option.short, needsValue);
  }
  const own: string[] = [];
  let positionals = 0;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--") return { own, command: argv.slice(i + 1) };
    if (word.startsWith("--")) {
      own.push(word);
      // --name value (unless written --name=value); unknown options are left to commander to report.
      if (!word.includes("=") && takesValue.get(word) === true && i + 1 < argv.length) own.push(argv[++i]!);
      continue;
    }
    if (word.startsWith("-") && word.length > 1) {
      own.push(word);
      // A cluster of short flags such as -qj4: a flag that takes a value takes the rest of the word,
      // or the next word when it ends the cluster.
      for (let k = 1; k < word.length; k++) {
        if (takesValue.get(`-${word[k]}`) === true) {
          if (k === word.length - 1 && i + 1 < argv.length) own.push(argv[++i]!);
          break;
        }
      }
      continue;
    }
    if (positionals === 1) return { own, command: argv.slice(i) };
    own.push(word);
    positionals++;
  }
  return { own, command: [] };
}

/** Parses argv (without node and the script) into checked options; throws UsageError or InfoShown. */
export function parseArgs(argv: readonly string[], version: string): CliOptions {
  const program = buildProgram(version);
  const { own, command } = splitCommand(argv, program);
  try {
    program.parse(own, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) throw new InfoShown(error.message);
      throw new UsageError("", { cause: error }); // commander has printed the message already
    }
    throw error;
  }
  if (program.opts().listLanguages === true) throw new InfoShown("languages listed", languageTable());
  // The config file's options come first; the command line's replace them (config-file.ts).
  const configured = applyConfigFile(program, own, command, () => buildProgram(version));
  const [input] = program.processedArgs as [string | undefined];
  if (program.opts().printConfig === true) throw new InfoShown("config printed", configured.describe(input));
  const o = configured.program.opts();
  if (input === undefined) throw new UsageError("no INPUT file given");
  if (o.test !== undefined && command.length > 0)
    throw new UsageError("give the test either after -- or with --test, not both");
  const testCommand: string[] = o.test !== undefined ? [o.test as string] : configured.command;
  if (testCommand.length === 0) throw new UsageError("no test given: add -- CMD [ARG...] or --test SCRIPT");
  if (o.inPlace && input === "-")
    throw new UsageError("--in-place cannot reduce stdin (-): there is no file to write back");
  if (o.inPlace && o.output !== undefined)
    throw new UsageError("--in-place and --output cannot be used together");
  if (o.quiet && o.verbose) throw new UsageError("--quiet and --verbose cannot be used together");
  const verdict = verdictOptionsOf(o);
  if (typeof verdict === "string") throw new UsageError(verdict);
  if (o.queue !== undefined) {
    const judging = ["expectExit", "expectSignal", "expectStdout", "expectStderr", "sameFailure"].find(
      (key) => o[key] !== undefined && o[key] !== false,
    );
    if (judging !== undefined)
      throw new UsageError(
        `--${judging.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} cannot be used with --queue: a worker sends back the test's outcome, not its output; judge it in the test command instead`,
      );
  }
  return {
    input,
    command: testCommand,
    reduce: reduceOptionsOf(o),
    timeoutMs: o.timeout as number | undefined,
    limits: { maxTimeMs: o.maxTime as number | undefined, maxTests: o.maxTests as number | undefined },
    output: o.output as string | undefined,
    inPlace: o.inPlace === true,
    stats: o.stats as string | undefined,
    report: o.report as string | undefined,
    events: o.events as string | undefined,
    resume: o.resume === true,
    quiet: o.quiet === true,
    verbose: o.verbose === true,
    grammar: (o.grammar as string[] | undefined) ?? [],
    format: o.format as string | undefined,
    language: o.language as BuiltInLanguage | "none" | undefined,
    atomGiven: configured.program.getOptionValueSource("atom") === "cli",
    start: o.start as string | undefined,
    grammarHelpers: o.grammarHelpers as string | undefined,
    allowSyntaxErrors: o.allowSyntaxErrors === true,
    replacements: o.replacements as string | undefined,
    hoistCompatible: o.hoistCompatible as string | undefined,
    phases: (o.phase as string[] | undefined) ?? [],
    algorithmGiven: configured.program.getOptionValueSource("algorithm") === "cli",
    transforms: transformsOf(o),
    queue: o.queue as string | undefined,
    verdict,
  };
}

export { EXIT };
