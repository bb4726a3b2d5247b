import { InvalidOptionError } from "../errors.js";
import { BUILT_IN_LANGUAGES } from "../grammar/tree-sitter/languages.js";
import { REDUCE_OPTIONS } from "./options.js";

/**
 * The options of one reduce() call besides the reduction's own (REDUCE_OPTIONS, checked by
 * resolveOptions): what each must be, checked at run time because a JavaScript caller may pass
 * anything whatever the types say.
 */
const RUN_OPTIONS: Readonly<Record<string, { expected: string; check: (value: unknown) => boolean }>> = {
  signal: { expected: "an AbortSignal", check: (v) => v instanceof AbortSignal },
  onEvent: { expected: "a function", check: (v) => typeof v === "function" },
  assumeInteresting: { expected: "true or false", check: (v) => typeof v === "boolean" },
  pipeline: {
    expected: "an array of passes (each with a name and a run function)",
    check: (v) =>
      Array.isArray(v) &&
      v.every((p: unknown) => isObject(p) && typeof p["name"] === "string" && typeof p["run"] === "function"),
  },
  syntax: {
    expected: "a syntax check (an object with a syntaxErrors function)",
    check: (v) => isObject(v) && typeof v["syntaxErrors"] === "function",
  },
  journal: {
    expected: "an outcome journal (an object with peek, recall and record functions)",
    check: (v) =>
      isObject(v) &&
      typeof v["peek"] === "function" &&
      typeof v["recall"] === "function" &&
      typeof v["record"] === "function",
  },
  memory: {
    expected: "a memory budget (an object with a number `available`)",
    check: (v) => isObject(v) && typeof v["available"] === "number",
  },
  language: {
    expected: `one of ${BUILT_IN_LANGUAGES.join(", ")}`,
    check: (v) => (BUILT_IN_LANGUAGES as readonly unknown[]).includes(v),
  },
  grammar: {
    expected: "a non-empty array of ANTLR grammar file paths",
    check: (v) => Array.isArray(v) && v.length > 0 && v.every((f) => typeof f === "string" && f !== ""),
  },
  start: { expected: "the name of a parser rule", check: (v) => typeof v === "string" && v !== "" },
  spare: { expected: "a function", check: (v) => typeof v === "function" },
  idleWork: { expected: "a function", check: (v) => typeof v === "function" },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Rejects, naming the key, an options object with a key reduce() does not know (a misspelt option
 * would otherwise be ignored in silence), a run option of the wrong type, and options that cannot
 * go together. The reduction's own options are checked when they are resolved.
 */
export function checkRunOptions(options: unknown): void {
  if (!isObject(options) || Array.isArray(options))
    throw new InvalidOptionError("options", `expected an object, got ${describe(options)}`);
  for (const [key, value] of Object.entries(options)) {
    if (Object.hasOwn(REDUCE_OPTIONS, key)) continue;
    const spec = RUN_OPTIONS[key];
    if (spec === undefined) {
      const known = [...Object.keys(REDUCE_OPTIONS), ...Object.keys(RUN_OPTIONS)];
      throw new InvalidOptionError(key, `not an option of reduce(); the options are ${known.join(", ")}`);
    }
    if (value !== undefined && !spec.check(value))
      throw new InvalidOptionError(key, `expected ${spec.expected}, got ${describe(value)}`);
  }
  const given = (key: string): boolean => options[key] !== undefined;
  if (given("language") && given("grammar"))
    throw new InvalidOptionError("grammar", "give a built-in language or an ANTLR grammar, not both");
  for (const key of ["language", "grammar"]) {
    if (given(key) && given("pipeline"))
      throw new InvalidOptionError(
        key,
        `${key} chooses the default pipeline along it: give it or pipeline, not both`,
      );
    if (given(key) && given("syntax"))
      throw new InvalidOptionError(key, `${key} is the syntax check: give it or syntax, not both`);
  }
  if (given("start") && !given("grammar"))
    throw new InvalidOptionError("start", "the start rule is an ANTLR grammar's: give grammar too");
}

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "symbol")
    return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
