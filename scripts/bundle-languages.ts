/**
 * Copies each built-in language's WASM and grammar.json from its npm package (a devDependency) into
 * dist/languages, where whittle reads them at run time (src/grammar/tree-sitter/bundle.ts), with
 * the packages' versions. Part of `npm run build`.
 */
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BUNDLE_DIR,
  BUNDLE_GRAMMAR,
  BUNDLE_VERSIONS,
  BUNDLE_WASM,
} from "../src/grammar/tree-sitter/bundle.js";
import { BUILT_IN_LANGUAGES, packageRoot } from "../src/grammar/tree-sitter/index.js";
import { languageSpec } from "../src/grammar/tree-sitter/languages.js";

// Built beside the bundle and renamed into place, so an interrupted build leaves the old one whole.
const building = BUNDLE_DIR.replace(/\/$/, "") + ".building";
rmSync(building, { recursive: true, force: true });
const versions: Record<string, { package: string; version: string }> = {};
for (const name of BUILT_IN_LANGUAGES) {
  const spec = languageSpec(name);
  const root = packageRoot(spec);
  mkdirSync(join(building, name), { recursive: true });
  copyFileSync(join(root, spec.wasm), join(building, name, BUNDLE_WASM));
  copyFileSync(join(root, spec.dir, "src/grammar.json"), join(building, name, BUNDLE_GRAMMAR));
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  versions[name] = { package: spec.package, version };
}
writeFileSync(join(building, BUNDLE_VERSIONS), JSON.stringify(versions, null, 2) + "\n");
rmSync(BUNDLE_DIR, { recursive: true, force: true });
renameSync(building, BUNDLE_DIR);
