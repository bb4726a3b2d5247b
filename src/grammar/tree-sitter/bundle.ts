/**
 * Where the built-in languages are read from at run time: `dist/languages/NAME/` holds each
 * language's WASM and `grammar.json`, copied from its npm package by `npm run build`
 * (scripts/bundle-languages.ts), and `dist/languages/versions.json` the packages' versions. The
 * languages' npm packages are only needed to build: they carry native sources and install scripts
 * (node-gyp) that whittle never uses, and most of their size.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { WhittleError } from "../../errors.js";
import type { BuiltInLanguage } from "./languages.js";

/** dist/languages, from dist/src/grammar/tree-sitter/bundle.js. */
export const BUNDLE_DIR = fileURLToPath(new URL("../../../languages/", import.meta.url));

export const BUNDLE_WASM = "language.wasm";
export const BUNDLE_GRAMMAR = "grammar.json";
export const BUNDLE_VERSIONS = "versions.json";

/** The bundled files of a language. */
export function bundledFile(language: BuiltInLanguage, file: string): string {
  return `${BUNDLE_DIR}${language}/${file}`;
}

/** The text of a bundled file; a missing one means the build did not run (or was interrupted). */
export function readBundled(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new WhittleError("internal", `the built-in languages are missing (${path}): run npm run build`, {
      cause: error,
    });
  }
}

let versions: Record<string, { package: string; version: string }> | undefined;

/** The version of the npm package a bundled language was copied from. */
export function bundledVersion(language: BuiltInLanguage): string {
  versions ??= JSON.parse(readBundled(`${BUNDLE_DIR}${BUNDLE_VERSIONS}`)) as Record<
    string,
    { package: string; version: string }
  >;
  const entry = versions[language];
  if (entry === undefined) throw new WhittleError("internal", `${language} is not in the bundled languages`);
  return entry.version;
}
