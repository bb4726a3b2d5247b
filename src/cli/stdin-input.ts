/**
 * INPUT "-": the input comes from stdin. All of it is read before anything else happens, and kept
 * as a file in the run directory, so the rest of a run treats it as any input file (never written
 * back: --in-place refuses "-"). The result goes to a new file in the current directory.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BuiltInLanguage } from "../grammar/tree-sitter/index.js";
import { languageSpec } from "../grammar/tree-sitter/languages.js";
import { exists } from "./files.js";

/** The input's name for the test and in messages: the candidate is `stdin` (`stdin.c` with --language c). */
export const STDIN_STEM = "stdin";

/** Reads `stream` to its end; rejects with `signal`'s reason when it is aborted first. */
export function readAll(stream: NodeJS.ReadableStream, signal?: AbortSignal): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer | string): void => {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    };
    const done = (): void => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      signal?.removeEventListener("abort", onAbort);
      stream.pause();
    };
    const onEnd = (): void => {
      done();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: unknown): void => {
      done();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onAbort = (): void => {
      done();
      reject(signal!.reason instanceof Error ? signal!.reason : new Error("stopped"));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}

/**
 * The file name stdin's input gets: `stdin`, with the first extension of the language --language
 * names (a compiler may need it: `gcc stdin.c`). Without one, its #! line may still choose a language.
 */
export function stdinFileName(language: BuiltInLanguage | "none" | undefined): string {
  const extension = language === undefined || language === "none" ? "" : languageSpec(language).extensions[0];
  return `${STDIN_STEM}${extension ?? ""}`;
}

/**
 * Reads all of stdin and keeps it as `fileName` in a directory of its own below `runDir` (removed
 * with the run); returns the file's path. Stops waiting when `signal` is aborted (Ctrl-C).
 */
export async function stageStdin(
  stdin: NodeJS.ReadableStream,
  runDir: string,
  fileName: string,
  signal?: AbortSignal,
): Promise<string> {
  const bytes = await readAll(stdin, signal);
  const dir = join(runDir, "stdin-input");
  await mkdir(dir, { mode: 0o700 });
  const path = join(dir, fileName);
  await writeFile(path, bytes, { mode: 0o600 });
  return path;
}

/**
 * The default output of a run on stdin: `stdin.reduced` (with the extension of `fileName`) in `cwd`,
 * or `stdin.reduced.1`, `.2`, … when that is taken: never a file that exists.
 */
export async function freeStdinOutput(cwd: string, extension: string): Promise<string> {
  for (let i = 0; ; i++) {
    const name = `${STDIN_STEM}.reduced${i === 0 ? "" : `.${i}`}${extension}`;
    if (!(await exists(join(cwd, name)))) return name;
  }
}
