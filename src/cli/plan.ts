import { lstat, readdir, readFile, readlink, realpath, stat } from "node:fs/promises";
import { basename, delimiter, dirname, extname, join, resolve } from "node:path";
import { readFile as readText } from "node:fs/promises";
import { AntlrFrontEnd } from "../grammar/front-end.js";
import { detectLanguage } from "../grammar/tree-sitter/detect.js";
// Types only: the front end (and web-tree-sitter) is imported when a language is used.
import type { TreeSitterFrontEnd } from "../grammar/tree-sitter/index.js";
import { languageSpec, type BuiltInLanguage } from "../grammar/tree-sitter/languages.js";
import { FormatFileError, readFormatFile, type FormatFile } from "../grammar/format-file.js";
import { compatibilityTable } from "../hdd/compatibility.js";
import type { Compatibility } from "../hdd/search.js";
import { CommandOracle } from "../oracle/command.js";
import type { Pass } from "../passes/pass.js";
import { Replacements } from "../tree/replacements.js";
import { planPipeline, type PlannedStep } from "./pipeline.js";
import { checkEventsTarget, type EventsTarget } from "./events-file.js";
import { mayHoldStats } from "./stats-file.js";
import { checkReportPath } from "./report-file.js";
import { formatBytes } from "./progress.js";
import { UsageError, type CliOptions } from "./args.js";
import type { RunScope } from "./lifecycle.js";
import { freeStdinOutput, stageStdin, stdinFileName } from "./stdin-input.js";
import { journalHeader, planJournal, type JournalPlan } from "./journal.js";
import {
  canonical,
  sameFile,
  sameFileAsAny,
  defaultOutputPath,
  freeBackupName,
  likenessOf,
  whyNotWritable,
  type FileLikeness,
  type OriginalFile,
  type OutputTarget,
} from "./files.js";

/** Everything a run needs, checked before any test runs. */
export interface RunPlan {
  readonly options: CliOptions;
  /** The run's temporary directory and the tracker of its tests' process groups. */
  readonly run: RunScope;
  /** The input's path; for a symlink reduced in place, the path of its target. */
  readonly inputPath: string;
  /** The input's bytes as read at the start: the original, whatever happens to the file later. */
  readonly input: Uint8Array;
  readonly inputLike: FileLikeness;
  /** The file the input was read from (through INPUT's symlink, if it is one), to restore it. */
  readonly original: OriginalFile;
  readonly fileName: string;
  /** The test's argv, its program resolved to an absolute path. */
  readonly command: string[];
  readonly env: Record<string, string>;
  readonly output: OutputTarget;
  /** How the output is named to the user. */
  readonly outputName: string;
  /** File name for the result if the output cannot take it (saved in the temporary directory). */
  readonly fallbackName: string;
  /** With --in-place: where the original is kept. */
  readonly backupPath: string | undefined;
  readonly statsPath: string | undefined;
  /** --report: where the HTML page of the run goes (cli/report-file.ts). */
  readonly reportPath: string | undefined;
  /** With --events: where the events go. */
  readonly events: EventsTarget | undefined;
  /** The journal of the tests' answers beside a result file, for --resume (journal.ts). */
  readonly journal: JournalPlan | undefined;
  /** The passes, in order: ddmin over atoms, or the tree phases of a grammar and their polish. */
  readonly pipeline: Pass[];
  /** The default schedule the pipeline comes from (passes/schedule.ts); undefined with --phase. */
  readonly schedule: readonly PlannedStep[] | undefined;
  /** With --grammar: the front-end, and how many syntax errors the original has (when allowed). */
  readonly frontEnd: AntlrFrontEnd | TreeSitterFrontEnd | undefined;
  readonly syntaxErrors: number;
  /** What the user should know about how the input is reduced (printed unless --quiet). */
  readonly notice: string | undefined;
}

/**
 * Checks everything the command line names — the working directory, the input, the test, the output,
 * the statistics file — and refuses (UsageError, exit 2) any run that could not finish or that would
 * overwrite the input, its backup or the result.
 */
export async function planRun(
  o: CliOptions,
  run: RunScope,
  say?: (text: string) => void,
  /** Where INPUT "-" is read from, and the signal that stops waiting for it. */
  from: { stdin?: NodeJS.ReadableStream & { isTTY?: boolean }; signal?: AbortSignal } = {},
): Promise<RunPlan> {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    throw new UsageError("the current directory no longer exists: cd to one that does and run whittle again");
  }

  // INPUT "-": all of stdin, read now and kept as a file of the run (stdin-input.ts).
  let given: string;
  if (o.input === "-") {
    const stdin = from.stdin ?? process.stdin;
    if (stdin.isTTY === true) say?.("reading the input from stdin, up to its end (Ctrl-D)");
    try {
      given = await stageStdin(stdin, run.dir, stdinFileName(o.language), from.signal);
    } catch (error) {
      if (from.signal?.aborted) throw error;
      throw new UsageError(`cannot read the input from stdin: ${(error as Error).message}`);
    }
  } else {
    given = resolve(cwd, o.input);
  }
  // The input: a readable regular file. In place, a symlink's target is what gets reduced.
  let inputPath = given;
  let input: Uint8Array;
  let inputLike: FileLikeness;
  let original: OriginalFile;
  try {
    const link = (await lstat(given)).isSymbolicLink()
      ? { path: given, target: await readlink(given) }
      : undefined;
    const real = link !== undefined ? await realpath(given) : given;
    if (o.inPlace) inputPath = real;
    const s = await stat(real);
    if (!s.isFile()) throw new UsageError(`input ${o.input} is not a regular file`);
    inputLike = likenessOf(s);
    original = { path: real, id: `${s.dev}:${s.ino}`, like: inputLike, link };
    input = await readFile(real);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read input ${o.input}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }

  // Grammar-aware reduction: the grammar loads and the original parses, or the run stops here.
  // Tree phases asked for by name need the tree: then a detected language's syntax error stops the
  // run, as a named language's does, instead of falling back to text.
  const wantsTree = o.phases.some((phase) => phase !== "line" && phase !== "char");
  const { frontEnd, compatible, syntaxErrors, notice } = await treeSetup(
    o,
    cwd,
    input,
    basename(given),
    !wantsTree,
    say,
  );
  // The default grammar pipeline's tree phases use their own algorithm unless one is given.
  const { passes: pipeline, schedule } = planPipeline(
    o.phases,
    o.reduce.atom,
    frontEnd,
    compatible,
    !o.algorithmGiven,
    input,
  );

  // The test: its program as an absolute path (it runs in a temporary directory, where a relative
  // path or a relative PATH entry would mean something else).
  const command = [...o.command];
  // With --queue the workers run it: it need not exist here (each worker checks its own).
  if (o.queue === undefined) command[0] = await CommandOracle.checkExecutable(o.command[0]!);

  const defaultOutput =
    o.input === "-" ? await freeStdinOutput(cwd, extname(given)) : defaultOutputPath(o.input);
  const output = await outputTarget(o, cwd, inputPath, inputLike, defaultOutput);
  const outputName = o.inPlace ? o.input : o.output === "-" ? "stdout" : (o.output ?? defaultOutput);
  if (!o.inPlace && output.kind !== "stdout" && (await sameFile(output.path, inputPath))) {
    throw new UsageError(
      `the output ${outputName} is the input itself; use --in-place to reduce the input (it keeps a backup)`,
    );
  }
  // Earlier backups of the input (an earlier --in-place): the only copies of an original.
  const backups = await existingBackups([given, original.path]);
  if (output.kind === "file" && !o.inPlace) {
    const backup = await sameFileAsAny(output.path, backups);
    if (backup !== undefined) {
      throw new UsageError(
        `the output ${outputName} would overwrite ${backup}, a backup of the input: name another file`,
      );
    }
  }
  const backupPath = o.inPlace ? await freeBackupName(given) : undefined;

  // The statistics file may be none of the files whittle must keep, nor any other file that is not
  // a statistics file whittle wrote.
  let statsPath: string | undefined;
  if (o.stats !== undefined) {
    statsPath = resolve(cwd, o.stats);
    const guarded: [string, string | undefined][] = [
      ["the input", inputPath],
      ["the input", given],
      ["the output", output.kind === "stdout" ? undefined : output.path],
      ["the backup of the input", backupPath],
    ];
    for (const [what, path] of guarded) {
      if (path !== undefined && (await sameFile(statsPath, path))) {
        throw new UsageError(`--stats ${o.stats} would overwrite ${what}: name another file`);
      }
    }
    const backup = await sameFileAsAny(statsPath, backups);
    if (backup !== undefined) {
      throw new UsageError(
        `--stats ${o.stats} would overwrite ${backup}, a backup of the input: name another file`,
      );
    }
    const why = await whyNotWritable(statsPath);
    if (why !== undefined) throw new UsageError(`cannot write the statistics to ${o.stats}: ${why}`);
    // Through a symlink, the file it links to is rewritten and the link stays. A device or FIFO
    // (/dev/tty, a shell's >(…)) is written into as it is, by the name given.
    const special = await stat(statsPath).then(
      (s) => !s.isFile(),
      () => false,
    );
    if (!special) statsPath = await canonical(statsPath);
    if (!(await mayHoldStats(statsPath))) {
      throw new UsageError(
        `--stats ${o.stats} would overwrite a file that is not a statistics file of whittle: ` +
          "name another file (or remove it)",
      );
    }
  }

  const reportPath =
    o.report === undefined
      ? undefined
      : await checkReportPath(o.report, cwd, [
          ["the input", inputPath],
          ["the input", given],
          ["the output", output.kind === "stdout" ? undefined : output.path],
          ["the backup of the input", backupPath],
          ["the statistics file", statsPath],
          ["the events file", o.events === undefined || o.events === "-" ? undefined : o.events],
          ...backups.map((b): [string, string] => [`${b}, a backup of the input`, b]),
        ]);
  const events =
    o.events === undefined
      ? undefined
      : await checkEventsTarget(o.events, cwd, {
          inputs: [inputPath, given],
          output: output.kind === "stdout" ? undefined : output.path,
          outputIsStdout: output.kind === "stdout",
          backup: backupPath,
          backups,
          stats: statsPath,
        });
  if (events?.kind === "file" && reportPath !== undefined && resolve(cwd, reportPath) === events.path)
    throw new UsageError(`--report and --events name the same file (${o.report}): name two files`);
  const journal = await planJournal(
    o,
    output.kind === "file" && !o.inPlace ? output.path : undefined,
    journalHeader(
      o,
      input,
      command,
      basename(given),
      pipeline.map((pass) => pass.name),
    ),
    async (path) => {
      for (const [what, other] of [
        ["the input", inputPath],
        ["the input", given],
        ["the statistics file", statsPath],
      ] as const) {
        if (other !== undefined && (await sameFile(path, other))) return what;
      }
      const backup = await sameFileAsAny(path, backups);
      return backup === undefined ? undefined : `${backup}, a backup of the input`;
    },
  );

  return {
    options: o,
    run,
    inputPath,
    input,
    inputLike,
    original,
    fileName: basename(given),
    command,
    env: {
      WHITTLE_INPUT: backupPath ?? inputPath,
      WHITTLE_CWD: cwd,
      PATH: absolutePath(process.env["PATH"] ?? "", cwd),
    },
    output,
    outputName,
    fallbackName: basename(defaultOutputPath(inputPath)),
    backupPath,
    statsPath,
    reportPath,
    events,
    journal,
    pipeline,
    schedule,
    frontEnd,
    syntaxErrors,
    notice,
  };
}

/**
 * A detected language whose error regions (ERROR nodes) hold more than this share of the input's
 * bytes leaves the input to the text pipeline: an error region is one unit for the tree phases, so
 * such a tree has little left to reduce along.
 */
const ERROR_SHARE_FOR_TEXT = 0.5;

/** The options of grammar-aware reduction (the main command's and `whittle tree`'s). */
export type GrammarOptions = Pick<
  CliOptions,
  | "atomGiven"
  | "grammar"
  | "format"
  | "language"
  | "start"
  | "grammarHelpers"
  | "allowSyntaxErrors"
  | "replacements"
  | "hoistCompatible"
  | "transforms"
>;

/** Reads and parses a table file the user named for an option; a problem is a usage error naming it. */
async function readTableOption<T>(
  option: string,
  path: string,
  cwd: string,
  parse: (text: string) => T,
): Promise<T> {
  const text = await readOptionFile(option, path, cwd);
  try {
    return parse(text);
  } catch (error) {
    throw new UsageError(`${option} ${path}: ${(error as Error).message}`);
  }
}

/** Reads a file the user named for an option, or says which and why it cannot be read. */
async function readOptionFile(option: string, path: string, cwd: string): Promise<string> {
  try {
    return await readText(resolve(cwd, path), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${option} ${path}: ${code === "ENOENT" ? "no such file" : (error as Error).message}`,
    );
  }
}

/** Inputs from this size on are announced before they are parsed (`say`). */
const PARSE_NOTICE_BYTES = 1024 * 1024;

/**
 * The grammar front-end and the tables of the tree passes: loads the grammar (WhittleError "grammar"
 * when it cannot) and parses the original (WhittleError "syntax" naming the first error, unless
 * --allow-syntax-errors). The grammar is --grammar's, --format's or --language's; with none of
 * them, the language of the input's extension or #! line (detectLanguage), unless --atom asks for
 * lines and characters. An input of no known language is reduced as text, with a notice; so is one
 * whose detected language finds a syntax error in it, when `textFallback` (otherwise that is the
 * usual syntax error), and, when `textFallback`, one whose tree would not fit in memory. Without a
 * grammar, options that need one are refused. `say` announces the parse of a large input.
 */
export async function treeSetup(
  o: GrammarOptions,
  cwd: string,
  input: Uint8Array,
  fileName: string,
  textFallback = true,
  say?: (text: string) => void,
): Promise<{
  frontEnd: AntlrFrontEnd | TreeSitterFrontEnd | undefined;
  compatible: Compatibility | undefined;
  syntaxErrors: number;
  notice: string | undefined;
}> {
  const antlr = o.grammar.length > 0 || o.format !== undefined;
  let language: BuiltInLanguage | undefined;
  let detected: string | undefined;
  let notice: string | undefined;
  if (o.language !== undefined && o.language !== "none") {
    language = o.language;
  } else if (o.language === undefined && !antlr && !o.atomGiven) {
    const found = detectLanguage(fileName, input);
    if (found !== undefined) {
      language = found.language;
      detected = `${fileName} is ${languageSpec(found.language).title} by its ${found.by}`;
    } else {
      const extension = extname(fileName);
      notice = `${fileName}: no built-in language for ${extension === "" ? "files without an extension" : `"${extension}" files`} (nor a #! line naming one): reducing lines and characters; --language NAME chooses one (whittle --list-languages)`;
    }
  }
  if (!antlr && language === undefined) {
    for (const [given, option] of [
      [o.start, "--start"],
      [o.grammarHelpers, "--grammar-helpers"],
      [o.replacements, "--replacements"],
      [o.hoistCompatible, "--hoist-compatible"],
    ] as const) {
      if (given !== undefined)
        throw new UsageError(`${option} needs a grammar: add --grammar FILE or --language NAME`);
    }
    if (o.allowSyntaxErrors)
      throw new UsageError("--allow-syntax-errors needs a grammar: add --grammar FILE or --language NAME");
    return { frontEnd: undefined, compatible: undefined, syntaxErrors: 0, notice };
  }
  if (o.language === "none") {
    for (const [given, option] of [
      [o.grammar.length > 0 ? "" : undefined, "--grammar"],
      [o.format, "--format"],
    ] as const) {
      if (given !== undefined) throw new UsageError(`--language none and ${option} cannot be combined`);
    }
  }
  if (language !== undefined) {
    for (const [given, option] of [
      [o.grammar.length > 0 ? "" : undefined, "--grammar"],
      [o.format, "--format"],
      [o.start, "--start"],
      [o.grammarHelpers, "--grammar-helpers"],
    ] as const) {
      if (given === undefined) continue;
      throw new UsageError(
        detected === undefined
          ? `--language and ${option} cannot be combined: the language is built in`
          : `${option} is for ANTLR grammars, but ${detected}, a built-in language: add --grammar FILE or --format FILE`,
      );
    }
  }
  if (o.format !== undefined) {
    if (o.grammar.length > 0) {
      throw new UsageError("--format and --grammar cannot be combined: the format file names the grammars");
    }
    if (o.grammarHelpers !== undefined) {
      throw new UsageError(
        '--grammar-helpers cannot be combined with --format: give "helpers" in the format file',
      );
    }
  }
  const replacements =
    o.replacements === undefined
      ? undefined
      : await readTableOption("--replacements", o.replacements, cwd, (text) => Replacements.parse(text));
  const compatible =
    o.hoistCompatible === undefined
      ? undefined
      : await readTableOption("--hoist-compatible", o.hoistCompatible, cwd, compatibilityTable);
  const common = {
    start: o.start,
    ...(replacements ? { replacements } : {}),
    transforms: o.transforms,
    fileName,
  };
  if (language !== undefined) {
    const { TreeSitterFrontEnd } = await import("../grammar/tree-sitter/index.js");
    const frontEnd = await TreeSitterFrontEnd.load({
      language,
      ...(replacements ? { replacements } : {}),
      transforms: o.transforms,
      fileName,
    });
    // A parse of megabytes takes seconds (20.9 MB of JSON: 11 s) before anything else is printed.
    if (input.length >= PARSE_NOTICE_BYTES) {
      say?.(`${fileName}: parsing ${formatBytes(input.length)} as ${languageSpec(language).title}…`);
    }
    // The user did not ask for this language: syntax errors are no reason to fail. The tree is
    // error-tolerant (each error region one unit, removable whole, never split), unless the errors
    // cover most of the input: then there is little tree to reduce along, and text it is.
    const tolerant = detected !== undefined && textFallback;
    const errors = tolerant && !o.allowSyntaxErrors ? frontEnd.describeErrors(input) : undefined;
    if (errors !== undefined && errors.errorBytes > ERROR_SHARE_FOR_TEXT * input.length) {
      const share = Math.round((100 * errors.errorBytes) / input.length);
      const fallback = `${errors.text}, ${share}% of it in error regions: reducing lines and characters instead; --language ${language} --allow-syntax-errors reduces it as ${languageSpec(language).title}`;
      return { frontEnd: undefined, compatible: undefined, syntaxErrors: 0, notice: fallback };
    }
    const syntaxErrors = frontEnd.checkOriginal(input, o.allowSyntaxErrors || tolerant);
    // A tree that cannot be built in the memory left (V8's heap, mostly) would end the run in V8's
    // abort: the run reduces text instead, and says so. (Tree phases asked for by name fail with an
    // out-of-memory error when they parse, keeping the best result.)
    const shortfall = textFallback ? frontEnd.treeShortfall(input) : undefined;
    if (shortfall !== undefined) {
      const fallback =
        `${fileName}: ${shortfall.message}: reducing lines and characters instead; ` +
        `NODE_OPTIONS=--max-old-space-size=<MiB> raises V8's limit`;
      return { frontEnd: undefined, compatible: undefined, syntaxErrors: 0, notice: fallback };
    }
    if (errors !== undefined)
      notice = `${errors.text}: reducing along its syntax all the same, each error region kept whole; --language none reduces lines and characters`;
    else if (detected !== undefined)
      notice = `${detected}: reducing along its syntax; --language none reduces lines and characters`;
    return { frontEnd, compatible, syntaxErrors, notice };
  }
  const frontEnd =
    o.format !== undefined
      ? await AntlrFrontEnd.loadFormat({ format: await readFormatOption(o.format, cwd), ...common })
      : await AntlrFrontEnd.load({
          grammarFiles: o.grammar.map((g) => resolve(cwd, g)),
          grammarHelpers: o.grammarHelpers === undefined ? undefined : resolve(cwd, o.grammarHelpers),
          ...common,
        });
  // An original the grammar rejects is reduced with ANTLR's error recovery, with a notice.
  const { syntaxErrors, firstError } = frontEnd.checkOriginalRecovering(input, o.allowSyntaxErrors);
  if (firstError !== undefined)
    notice = `${firstError} (${syntaxErrors} syntax error${syntaxErrors === 1 ? "" : "s"} in all): reducing along the grammar with ANTLR's error recovery all the same (--allow-syntax-errors says so ahead)`;
  return { frontEnd, compatible, syntaxErrors, notice };
}

/** Reads the --format file; what is wrong with it is a usage error naming the file and the field. */
async function readFormatOption(path: string, cwd: string): Promise<FormatFile> {
  const absolute = resolve(cwd, path);
  try {
    return await readFormatFile(absolute, (file) =>
      file === absolute
        ? readOptionFile("--format", path, cwd)
        : readOptionFile(`--format ${path}: replacements file`, file, cwd),
    );
  } catch (error) {
    if (error instanceof FormatFileError) throw new UsageError(`--format ${path}: ${error.message}`);
    throw error;
  }
}

/** Where the result goes, and how: see OutputTarget. */
async function outputTarget(
  o: CliOptions,
  cwd: string,
  inputPath: string,
  inputLike: FileLikeness,
  defaultOutput: string,
): Promise<OutputTarget> {
  if (o.inPlace) return { kind: "file", path: inputPath, like: inputLike };
  if (o.output === "-") return { kind: "stdout" };
  const name = o.output ?? defaultOutput;
  const path = resolve(cwd, name);
  let s;
  try {
    s = await stat(path);
  } catch {
    s = undefined;
  }
  if (s !== undefined && !s.isFile() && !s.isDirectory()) return { kind: "special", path };
  const why = await whyNotWritable(path);
  if (why !== undefined) throw new UsageError(`cannot write the output ${name}: ${why}`);
  // An existing result file keeps its mode and owner; a new one gets the usual ones (umask).
  return { kind: "file", path: await canonical(path), like: s ? likenessOf(s) : undefined };
}

/**
 * The backups `--in-place` made of the input (`INPUT.orig`, `INPUT.orig.N`) that exist now, beside
 * each of `inputs` (the input as named, and through its symlink).
 */
async function existingBackups(inputs: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const input of new Set(inputs)) {
    const prefix = `${basename(input)}.orig`;
    let names: string[];
    try {
      names = await readdir(dirname(input));
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === prefix || (name.startsWith(`${prefix}.`) && /^\d+$/.test(name.slice(prefix.length + 1)))) {
        found.add(join(dirname(input), name));
      }
    }
  }
  return [...found];
}

/**
 * PATH for the test, with relative entries (and the empty entry, which means ".") made absolute
 * against whittle's own directory: the test runs in a temporary directory, where they would point
 * somewhere else.
 */
export function absolutePath(path: string, cwd: string): string {
  return path
    .split(delimiter)
    .map((entry) => resolve(cwd, entry))
    .join(delimiter);
}
