/**
 * The on-disk grammar cache: a processed grammar (GrammarData: serialized ATNs, vocabulary, rule
 * names, predicate texts, replacement tables) stored as JSON under the user's cache directory, keyed
 * by a hash of whittle's version and the grammar files' contents (with the grammars they import or
 * take their vocabulary from, found beside them). A hit skips antlr-ng entirely. Unreadable or stale
 * entries are ignored; a failed write only loses the speed-up.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { GRAMMAR_DATA_FORMAT, type GrammarData } from "./data.js";

/** `$XDG_CACHE_HOME/whittle`, else `~/.cache/whittle`. */
export function defaultCacheDir(): string {
  const xdg = process.env["XDG_CACHE_HOME"];
  return xdg ? join(xdg, "whittle") : join(homedir(), ".cache", "whittle");
}

let version: string | undefined;

/** whittle's version, from the package.json above this module. */
export function whittleVersion(): string {
  if (version !== undefined) return version;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "whittle") return (version = pkg.version ?? "0");
    }
    const parent = dirname(dir);
    if (parent === dir) return (version = "0");
    dir = parent;
  }
}

/** The grammar files and every `import`ed or `tokenVocab` grammar found beside them, in a stable order. */
export function grammarFileClosure(files: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = files.map((f) => resolve(f));
  const out: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    out.push(file);
    const text = readFileSync(file, "utf8");
    const names: string[] = [];
    for (const m of text.matchAll(/^\s*import\s+([^;]+);/gm)) {
      names.push(...m[1]!.split(",").map((n) => n.split("=").pop()!.trim()));
    }
    for (const m of text.matchAll(/\btokenVocab\s*=\s*([A-Za-z_]\w*)/g)) names.push(m[1]!);
    for (const name of names) {
      const beside = join(dirname(file), `${name}.g4`);
      if (existsSync(beside)) queue.push(beside);
    }
  }
  return out;
}

/**
 * The cache key: whittle's version, the data format, each grammar file's name and bytes, and `extra`
 * (what identifies the grammar helpers).
 */
export function grammarCacheKey(files: readonly string[], extra = ""): string {
  const hash = createHash("sha256");
  hash.update(`whittle ${whittleVersion()} format ${GRAMMAR_DATA_FORMAT} ${extra}\n`);
  for (const file of files) {
    const bytes = readFileSync(file);
    hash.update(`${basename(file)} ${bytes.length}\n`);
    hash.update(bytes);
  }
  return hash.digest("hex").slice(0, 32);
}

export function cacheFilePath(cacheDir: string, key: string): string {
  return join(cacheDir, "grammars", `${key}.json`);
}

export function readGrammarCache(file: string): GrammarData | null {
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as GrammarData;
    return data.format === GRAMMAR_DATA_FORMAT ? data : null;
  } catch {
    return null;
  }
}

/** Writes atomically (temporary file, then rename); returns whether it worked. */
export function writeGrammarCache(file: string, data: GrammarData): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}
