/**
 * The format file (`--format FILE`): one place for everything grammar-aware reduction needs to know
 * about an input format — the grammar files, the start rule, helpers and replacements — and for
 * formats that embed others, the islands: token types whose text is parsed with another grammar
 * (JavaScript inside an HTML `<script>` token, SQL inside a string literal). The idea is Picireny's;
 * this layout is whittle's own. JSON, or YAML when the file name ends in .yaml or .yml:
 *
 *     {
 *       "grammar": "page",                          // the input's grammar (default: the first one)
 *       "grammars": {
 *         "page": {
 *           "files": ["Page.g4"],                   // relative to the format file
 *           "start": "page",                        // optional; default: the parser's first rule
 *           "helpers": "page-helpers.js",           // optional, as --grammar-helpers
 *           "replacements": {"element": "<p/>"},    // optional: a table, or a replacements file
 *           "islands": {
 *             "SCRIPT": {"grammar": "js", "pattern": "^<script>(?<island>.*)</script>$"},
 *             "STYLE": "css"                        // the whole token text is the island
 *           }
 *         },
 *         "js": {"files": ["JavaScriptLexer.g4", "JavaScriptParser.g4"], "start": "program"},
 *         "css": {"files": ["Css.g4"]}
 *       }
 *     }
 *
 * A pattern is a JavaScript regular expression (with the `s` flag: `.` matches newlines) that must
 * match the token's whole text; the island is its group named `island`, else its first group. A token
 * whose text the pattern does not match stays a plain token.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { Replacements } from "../tree/replacements.js";

/** Where a token type's text is parsed with another grammar. */
export interface IslandRule {
  /** The name of the grammar (a key of `grammars`) that parses the island. */
  readonly grammar: string;
  /** Selects the island inside the token's text (group `island`, else group 1); none: the whole text. */
  readonly pattern?: RegExp;
}

export interface FormatGrammar {
  /** Absolute paths of the .g4 files. */
  readonly files: readonly string[];
  readonly start?: string;
  /** Absolute path of the helpers module. */
  readonly helpers?: string;
  readonly replacements?: Replacements;
  /** By token type name of this grammar. */
  readonly islands: ReadonlyMap<string, IslandRule>;
}

export interface FormatFile {
  /** The name of the input's grammar. */
  readonly host: string;
  readonly grammars: ReadonlyMap<string, FormatGrammar>;
}

/** A format file that cannot be used; the message names the field. */
export class FormatFileError extends Error {
  override readonly name = "FormatFileError";
}

const GRAMMAR_KEYS = new Set(["files", "start", "helpers", "replacements", "islands"]);

/**
 * Reads and checks a format file (its path absolute). Throws FormatFileError, or what `readText`
 * throws; `readText` reads the format file and the replacements files it names (absolute paths).
 */
export async function readFormatFile(
  path: string,
  readText: (path: string) => Promise<string> = (file) => readFile(file, "utf8"),
): Promise<FormatFile> {
  const text = await readText(path);
  const dir = dirname(path);
  return formatFromData(parseFormatText(text, /\.ya?ml$/i.test(path)), dir, (file) =>
    readText(resolve(dir, file)),
  );
}

/**
 * The YAML parser, loaded on first use: most runs read no YAML, and importing it costs about 50 ms
 * of every start.
 */
function parseYaml(text: string): unknown {
  const yaml = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yaml.parse(text);
}

/** JSON or YAML text to plain data; a parse error becomes a FormatFileError. */
export function parseFormatText(text: string, yaml: boolean): unknown {
  try {
    return yaml ? parseYaml(text) : (JSON.parse(text) as unknown);
  } catch (error) {
    throw new FormatFileError(`not valid ${yaml ? "YAML" : "JSON"}: ${(error as Error).message}`);
  }
}

/**
 * Checks the data of a format file and resolves its paths against `dir`; `readText` reads a
 * replacements file named in it.
 */
export async function formatFromData(
  data: unknown,
  dir: string,
  readText: (path: string) => Promise<string>,
): Promise<FormatFile> {
  if (!isObject(data)) throw new FormatFileError("the format must be an object");
  for (const key of Object.keys(data)) {
    if (key !== "grammar" && key !== "grammars") throw new FormatFileError(`unknown field "${key}"`);
  }
  const entries = data["grammars"];
  if (!isObject(entries) || Object.keys(entries).length === 0) {
    throw new FormatFileError(`"grammars" must be an object with at least one grammar`);
  }
  const grammars = new Map<string, FormatGrammar>();
  for (const [name, entry] of Object.entries(entries)) {
    grammars.set(name, await grammarFromData(name, entry, dir, readText));
  }
  const host = data["grammar"] ?? Object.keys(entries)[0]!;
  if (typeof host !== "string" || !grammars.has(host)) {
    throw new FormatFileError(`"grammar" must name one of the grammars (${[...grammars.keys()].join(", ")})`);
  }
  for (const [name, grammar] of grammars) {
    for (const [token, island] of grammar.islands) {
      if (!grammars.has(island.grammar)) {
        throw new FormatFileError(
          `grammars.${name}.islands.${token}: no grammar named "${island.grammar}" in "grammars"`,
        );
      }
    }
  }
  return { host, grammars };
}

async function grammarFromData(
  name: string,
  entry: unknown,
  dir: string,
  readText: (path: string) => Promise<string>,
): Promise<FormatGrammar> {
  const where = `grammars.${name}`;
  if (!isObject(entry)) throw new FormatFileError(`${where} must be an object`);
  for (const key of Object.keys(entry)) {
    if (!GRAMMAR_KEYS.has(key)) throw new FormatFileError(`${where}: unknown field "${key}"`);
  }
  const files = entry["files"];
  if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === "string")) {
    throw new FormatFileError(`${where}.files must be a list of .g4 file names`);
  }
  const start = optionalString(entry, "start", where);
  const helpers = optionalString(entry, "helpers", where);
  const replacements = await replacementsFromData(entry["replacements"], `${where}.replacements`, readText);
  const islands = new Map<string, IslandRule>();
  const islandData = entry["islands"] ?? {};
  if (!isObject(islandData)) throw new FormatFileError(`${where}.islands must be an object`);
  for (const [token, rule] of Object.entries(islandData)) {
    islands.set(token, islandFromData(rule, `${where}.islands.${token}`));
  }
  return {
    files: files.map((f: string) => resolve(dir, f)),
    ...(start !== undefined ? { start } : {}),
    ...(helpers !== undefined ? { helpers: resolve(dir, helpers) } : {}),
    ...(replacements !== undefined ? { replacements } : {}),
    islands,
  };
}

function islandFromData(rule: unknown, where: string): IslandRule {
  if (typeof rule === "string") return { grammar: rule };
  if (!isObject(rule)) throw new FormatFileError(`${where} must be a grammar name or {"grammar", "pattern"}`);
  for (const key of Object.keys(rule)) {
    if (key !== "grammar" && key !== "pattern") throw new FormatFileError(`${where}: unknown field "${key}"`);
  }
  const grammar = rule["grammar"];
  if (typeof grammar !== "string") throw new FormatFileError(`${where}.grammar must be a grammar name`);
  const source = optionalString(rule, "pattern", where);
  if (source === undefined) return { grammar };
  let pattern: RegExp;
  try {
    pattern = new RegExp(source, "su");
  } catch (error) {
    throw new FormatFileError(`${where}.pattern: ${(error as Error).message}`);
  }
  return { grammar, pattern };
}

async function replacementsFromData(
  value: unknown,
  where: string,
  readText: (path: string) => Promise<string>,
): Promise<Replacements | undefined> {
  if (value === undefined) return undefined;
  try {
    if (typeof value === "string") return Replacements.parse(await readText(value));
    if (isObject(value)) return Replacements.parse(JSON.stringify(value));
  } catch (error) {
    throw new FormatFileError(`${where}: ${(error as Error).message}`);
  }
  throw new FormatFileError(`${where} must be a table {"rule": "text"} or a replacements file name`);
}

function optionalString(object: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new FormatFileError(`${where}.${key} must be a non-empty string`);
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The island inside a token's text (its bytes): its byte span relative to the text, or undefined when
 * the pattern does not match the whole text. Without a pattern the island is the whole text. Text that
 * is not valid UTF-8 is read as Latin-1 (one character per byte), as the parser reads it.
 */
export function islandSpan(rule: IslandRule, bytes: Uint8Array): { start: number; end: number } | undefined {
  if (rule.pattern === undefined) return { start: 0, end: bytes.length };
  let text: string;
  let utf8 = true;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
    utf8 = false;
  }
  const flags = rule.pattern.flags.includes("d") ? rule.pattern.flags : `${rule.pattern.flags}d`;
  const match = new RegExp(rule.pattern.source, flags).exec(text);
  if (match === null || match.index !== 0 || match[0].length !== text.length) return undefined;
  const group = match.indices?.groups?.["island"] ?? match.indices?.[1];
  if (group === undefined) return { start: 0, end: bytes.length };
  // Regular expression indices count UTF-16 code units; spans are bytes.
  const byteAt = (index: number): number => (utf8 ? Buffer.byteLength(text.slice(0, index)) : index);
  return { start: byteAt(group[0]), end: byteAt(group[1]) };
}
