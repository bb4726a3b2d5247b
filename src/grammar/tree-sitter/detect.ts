/**
 * Which built-in language a file is, and the table `--list-languages` prints: what the command
 * needs on every start, without loading tree-sitter (index.ts loads it when a language is used).
 */
import { extname } from "node:path";
import { bundledVersion } from "./bundle.js";
import {
  BUILT_IN_LANGUAGES,
  languageOfExtension,
  languageOfShebang,
  languageSpec,
  type BuiltInLanguage,
} from "./languages.js";

/**
 * The language of a file the user did not name one for: by its extension, or else by the
 * interpreter on its `#!` line. Undefined when neither names a built-in language.
 */
export function detectLanguage(
  fileName: string,
  input: Uint8Array,
): { language: BuiltInLanguage; by: "extension" | "#! line" } | undefined {
  const extension = extname(fileName);
  const byExtension = extension === "" ? undefined : languageOfExtension(extension);
  if (byExtension !== undefined) return { language: byExtension, by: "extension" };
  const byShebang = languageOfShebang(input);
  return byShebang === undefined ? undefined : { language: byShebang, by: "#! line" };
}

/** The built-in languages as `whittle --list-languages` prints them: a table, one language a line. */
export function languageTable(): string {
  const rows = [["language", "extensions", "#! interpreters", "npm package"]];
  for (const name of BUILT_IN_LANGUAGES) {
    const spec = languageSpec(name);
    rows.push([
      name,
      spec.extensions.join(" "),
      spec.interpreters.join(" ") || "-",
      `${spec.package} ${bundledVersion(name)}`,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return (
    rows
      .map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join("  "))
      .join("\n") + "\n"
  );
}
