/**
 * Config files: whittle.config.json, .whittlerc, .whittlerc.json or a "whittle" key in
 * package.json, found from the input's directory upward (lilconfig), or named by --config. A key is
 * an option's long name as written on the command line without the dashes ("split-factor"); a
 * switch takes true or false ("dd-star": false); "test" is the test command as a list of words.
 * The file's settings become command-line words placed before the user's own, so commander checks
 * them exactly as it checks flags, and whatever the command line sets wins.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { CommanderError, type Command, type Option } from "commander";
import { lilconfigSync, type LilconfigResult } from "lilconfig";
import { repeatable, UsageError } from "./args.js";

/** The places searched in each directory, in this order (the first found wins). */
export const CONFIG_PLACES = ["whittle.config.json", ".whittlerc", ".whittlerc.json", "package.json"];

/** Flags that do something rather than set something: not keys of a config file. */
const ACTIONS = new Set(["help", "version", "list-languages", "config", "print-config"]);

/**
 * Settings that cannot be combined: when the command line sets one of a group, the file's others of
 * that group are dropped, as if the command line had replaced them.
 */
const EXCLUSIVE: readonly (readonly string[])[] = [
  ["quiet", "verbose"],
  ["output", "inPlace"],
  ["grammar", "format", "language"],
];

/** One key a config file may hold: the flags it stands for and the kind of value it takes. */
interface Key {
  attribute: string;
  kind: "switch" | "value" | "list";
  on?: Option;
  off?: Option;
  /** A file or module argument: a relative value is taken from the config file's directory. */
  path: boolean;
}

/** Where a setting came from, as --print-config shows it. */
type Source = "default" | "command line" | { file: string };

/** The command line with the config file folded in. */
export interface Configured {
  /** A program that has parsed the file's words followed by the command line's. */
  program: Command;
  /** The test command: the command line's, or else the file's (relative paths resolved). */
  command: string[];
  /** The text --print-config prints. */
  describe(input: string | undefined): string;
}

/** The keys of the program's options (long name without dashes; a --no-x switch is key x). */
function keysOf(program: Command): Map<string, Key> {
  const keys = new Map<string, Key>();
  for (const option of program.options) {
    const name = option.long!.slice(2);
    const key = option.negate ? name.slice(3) : name;
    if (ACTIONS.has(key) || key === "test") continue;
    const entry = keys.get(key) ?? {
      attribute: option.attributeName(),
      kind:
        option.isBoolean() || option.negate ? "switch" : option.parseArg === repeatable ? "list" : "value",
      path: /<(file|module)>/.test(option.flags),
    };
    if (option.negate) entry.off = option;
    else entry.on = option;
    keys.set(key, entry);
  }
  return keys;
}

/** The keys a config file may hold for `program` (the main command's, for a subcommand's applyConfigFile). */
export function configKeys(program: Command): ReadonlySet<string> {
  return new Set(keysOf(program).keys());
}

/** The message for a key that is not one: what the user probably meant. */
function unknownKey(key: string, keys: Map<string, Key>, program: Command): string {
  const kebab = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  if (kebab !== key && keys.has(kebab))
    return `unknown key "${key}": keys are written as on the command line, "${kebab}"`;
  if (key.startsWith("no-") && keys.get(key.slice(3))?.kind === "switch")
    return `unknown key "${key}": write "${key.slice(3)}": false`;
  const short = program.options.find((o) => o.short === `-${key}`);
  if (short) return `unknown key "${key}": keys are the long names, "${short.long!.slice(2)}"`;
  if (key === "input") return `"input" is not a setting: INPUT is given on the command line`;
  if (ACTIONS.has(key) || key === "no-config")
    return `"${key}" is an action of the command line, not a setting of a config file`;
  return `unknown key "${key}": a key is an option's long name without "--" (whittle --help), or "test"`;
}

const describeType = (value: unknown) =>
  Array.isArray(value) ? "a list" : value === null ? "null" : typeof value;

/**
 * The command-line words of one setting, type-checked (`where` prefixes the messages), and its value
 * as --print-config shows it (relative paths resolved).
 */
function wordsOf(key: string, spec: Key, value: unknown, base: string, where: string): [string[], unknown] {
  const flag = `--${key}`;
  const wrongType = (v: unknown, expected: string, inList = false) =>
    new UsageError(
      `${where}: "${key}" must be ${expected}, not ${inList ? `a list holding ${describeType(v)}` : describeType(v)}`,
    );
  const text = (v: string) => (spec.path && v !== "-" && !isAbsolute(v) ? resolve(base, v) : v);
  switch (spec.kind) {
    case "switch":
      if (typeof value !== "boolean") throw wrongType(value, "true or false");
      // A switch with only one flag: the other value is the default, and needs no word.
      if (value) return [spec.on ? [flag] : [], value];
      return [spec.off ? [`--no-${key}`] : [], value];
    case "list": {
      const values = (Array.isArray(value) ? value : [value]).map((v) => {
        if (typeof v !== "string") throw wrongType(v, "a string or a list of strings", Array.isArray(value));
        return text(v);
      });
      return [values.map((v) => `${flag}=${v}`), values];
    }
    case "value":
      if (typeof value === "number") return [[`${flag}=${value}`], value];
      if (typeof value !== "string") throw wrongType(value, "a string or a number");
      return [[`${flag}=${text(value)}`], text(value)];
  }
}

/**
 * The test command of a config file: a non-empty list of strings. Its first word, when it holds a
 * "/", and any argument starting with "./" or "../" are paths from the config file's directory.
 */
function testOf(value: unknown, base: string, where: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((w) => typeof w !== "string"))
    throw new UsageError(
      `${where}: "test" must be a non-empty list of strings, such as ["./check.sh", "{}"]`,
    );
  return (value as string[]).map((word, i) =>
    (i === 0 ? word.includes("/") : /^\.\.?\//.test(word)) && !isAbsolute(word) ? resolve(base, word) : word,
  );
}

/** Reads JSON, naming the file in what is wrong with it. */
function jsonLoader(path: string, content: string): unknown {
  try {
    return JSON.parse(content.replace(/^\uFEFF/, "")) as unknown;
  } catch (error) {
    throw new UsageError(`config file ${path}: invalid JSON: ${(error as Error).message}`);
  }
}

/**
 * A package.json met while searching: a project's own file, which says something to whittle only
 * through a "whittle" key. One that does not parse is passed over (it may be the very input being
 * reduced, a broken package.json that crashes a tool), not a reason to refuse the run.
 */
function searchedJsonLoader(path: string, content: string): unknown {
  if (basename(path) !== "package.json") return jsonLoader(path, content);
  try {
    const json = JSON.parse(content.replace(/^\uFEFF/, "")) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? json : {};
  } catch {
    return {};
  }
}

/** Finds (from `from` upward) or loads (`file`) the config file; every failure is a UsageError naming it. */
function readConfig(from: string, file: string | undefined): LilconfigResult {
  const loader = file === undefined ? searchedJsonLoader : jsonLoader;
  const explorer = lilconfigSync("whittle", {
    searchPlaces: CONFIG_PLACES,
    loaders: { ".json": loader, noExt: loader },
    ignoreEmptySearchPlaces: false,
    cache: false,
  });
  try {
    const found = file === undefined ? explorer.search(from) : explorer.load(file);
    if (found?.isEmpty === true)
      throw new UsageError(`config file ${found.filepath}: empty (write {} for no settings)`);
    if (found !== null && file !== undefined && found.config === null)
      throw new UsageError(`config file ${found.filepath}: no "whittle" key`);
    return found;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const e = error as NodeJS.ErrnoException;
    e.path ??= file ?? firstNonFile(from);
    const why = { ENOENT: "no such file", EACCES: "permission denied", EISDIR: "a directory" }[e.code ?? ""];
    throw new UsageError(`cannot read the config file ${e.path ?? from}: ${why ?? e.message}`);
  }
}

/** The first search place from `from` upward that exists but is not a file (fs names no path for EISDIR). */
function firstNonFile(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    for (const place of CONFIG_PLACES) {
      const path = join(dir, place);
      if (existsSync(path) && !statSync(path).isFile()) return path;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The working directory, which relative paths are from; gone, it is a usage error (as in plan.ts). */
function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    throw new UsageError("the current directory no longer exists: cd to one that does and run whittle again");
  }
}

/** Parses words with a program of its own that prints nothing; a refusal becomes a UsageError. */
function parseQuietly(program: Command, words: string[], where: string): Command {
  program.configureOutput({
    writeErr: () => undefined,
    writeOut: () => undefined,
    outputError: () => undefined,
  });
  try {
    return program.parse(words, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError)
      throw new UsageError(`${where}: ${error.message.replace(/^error: /, "")}`);
    throw error;
  }
}

/**
 * Folds the config file into the parsed command line. `cli` has parsed the command line's own words
 * `own`; `command` is its test command (empty if none); `fresh` builds an unparsed program. For a
 * subcommand (`whittle tree`), `known` holds the main command's keys (configKeys): the file is the
 * main command's, so a key `cli` lacks but the main command takes is passed over, and only a key of
 * neither is refused.
 */
export function applyConfigFile(
  cli: Command,
  own: readonly string[],
  command: readonly string[],
  fresh: () => Command,
  known?: ReadonlySet<string>,
): Configured {
  const given = (name: string) => own.some((w) => w === name || w.startsWith(`${name}=`));
  if (given("--config") && given("--no-config"))
    throw new UsageError("--config and --no-config cannot be used together");
  const named = cli.getOptionValue("config") as string | false | undefined;
  const input = cli.processedArgs[0] as string | undefined;
  const found =
    named === false
      ? null
      : readConfig(resolve(currentDirectory(), input === undefined ? "." : dirname(input)), named);

  const fromCli = new Set(
    cli.options.map((o) => o.attributeName()).filter((a) => cli.getOptionValueSource(a) === "cli"),
  );
  const dropped = new Set(EXCLUSIVE.flatMap((group) => (group.some((a) => fromCli.has(a)) ? group : [])));
  const fromFile = new Map<string, unknown>();
  const words: string[] = [];
  let fileCommand: string[] | undefined;
  if (found !== null) {
    const file = found.filepath;
    const base = dirname(file);
    const config = found.config as unknown;
    if (typeof config !== "object" || config === null || Array.isArray(config))
      throw new UsageError(
        `config file ${file}: must hold a JSON object of settings, not ${describeType(config)}`,
      );
    const keys = keysOf(cli);
    const setInFile = new Map<string, string>();
    for (const [key, value] of Object.entries(config)) {
      const where = `config file ${file}`;
      if (key === "test") {
        fileCommand = testOf(value, base, where);
        continue;
      }
      const spec = keys.get(key);
      if (known !== undefined && !known.has(key))
        throw new UsageError(`${where}: ${unknownKey(key, keys, cli)}`);
      if (spec === undefined && known?.has(key) === true) continue;
      if (spec === undefined) throw new UsageError(`${where}: ${unknownKey(key, keys, cli)}`);
      const [entry, shown] = wordsOf(key, spec, value, base, where);
      parseQuietly(fresh(), entry, `${where}: key "${key}"`);
      if (value !== false && !(Array.isArray(value) && value.length === 0)) {
        const rival = EXCLUSIVE.find((g) => g.includes(spec.attribute))?.find((a) => setInFile.has(a));
        if (rival !== undefined && rival !== spec.attribute)
          throw new UsageError(`${where}: "${setInFile.get(rival)}" and "${key}" cannot be combined`);
        setInFile.set(spec.attribute, key);
      }
      if (fromCli.has(spec.attribute) || dropped.has(spec.attribute)) continue;
      words.push(...entry);
      fromFile.set(spec.attribute, shown);
    }
  }

  // The file's words first: a flag of the command line, parsed later, replaces the file's value.
  const program = fresh();
  const raw = new Map<string, unknown>();
  for (const option of program.options) {
    program.on(`option:${option.name()}`, (value: string | undefined) => {
      const shown = value ?? !option.negate;
      raw.set(
        option.attributeName(),
        option.parseArg === repeatable
          ? [...((raw.get(option.attributeName()) as string[] | undefined) ?? []), shown]
          : shown,
      );
    });
  }
  parseQuietly(program, [...words, ...own], "the command line");
  const useFile =
    command.length === 0 && cli.getOptionValue("test") === undefined && fileCommand !== undefined;
  const sourceOf = (attribute: string): Source =>
    fromCli.has(attribute) ? "command line" : fromFile.has(attribute) ? { file: found!.filepath } : "default";

  return {
    program,
    command: useFile ? fileCommand! : [...command],
    describe(shownInput) {
      const rows: [string, string, Source][] = [];
      rows.push([
        "input",
        shownInput === undefined ? "(none)" : JSON.stringify(shownInput),
        shownInput === undefined ? "default" : "command line",
      ]);
      const cliTest = cli.getOptionValue("test") as string | undefined;
      const test = useFile ? fileCommand! : cliTest !== undefined ? [cliTest] : command;
      rows.push([
        "test",
        test.length === 0 ? "(none)" : JSON.stringify(test),
        useFile ? { file: found!.filepath } : test.length === 0 ? "default" : "command line",
      ]);
      for (const [key, spec] of keysOf(program)) {
        const source = sourceOf(spec.attribute);
        const current = program.getOptionValue(spec.attribute) as unknown;
        let value: string;
        if (source === "command line") value = JSON.stringify(raw.get(spec.attribute) ?? current);
        else if (source !== "default") value = JSON.stringify(fromFile.get(spec.attribute));
        else if (current !== undefined) value = JSON.stringify(current);
        else if (spec.kind === "switch") value = "false";
        // Computed defaults (jobs, timeout, output…) as --help describes them.
        else value = /\(default:? ([^);]*)/.exec((spec.on ?? spec.off)!.description)?.[1] ?? "(not set)";
        rows.push([key, value, source]);
      }
      const width = (i: 0 | 1) => Math.max(...rows.map((r) => r[i].length));
      const lines = rows.map(
        ([key, value, source]) =>
          `${key.padEnd(width(0))}  ${value.padEnd(width(1))}  ${typeof source === "string" ? source : source.file}`,
      );
      const header =
        found === null
          ? named === false
            ? "no config file (--no-config)"
            : "no config file found"
          : `config file: ${found.filepath}`;
      return `${header}\n${lines.join("\n")}\n`;
    },
  };
}
