import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writePredicateScript } from "./oracle-server.js";

export const REPO = resolve(import.meta.dirname, "../../..");
export const MAIN = join(REPO, "dist/src/cli/main.js");
export const FIXTURES = join(REPO, "test/fixtures");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

const scratchDirs: string[] = [];
process.on("exit", () => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh scratch directory for one test, removed when the test process exits. */
export function scratch(prefix = "whittle-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}

/** Runs the whittle command as a user would, in its own process. */
export function runWhittle(
  args: readonly string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    onSpawn?: (pid: number) => void;
    /** Called with all of stderr so far whenever more comes: to act when whittle has said something. */
    onStderr?: (stderr: string, pid: number) => void;
    /** What whittle reads on stdin (otherwise stdin is closed: /dev/null). */
    stdin?: string | Uint8Array;
  } = {},
): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, ...options.env },
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (options.stdin !== undefined) {
      child.stdin!.on("error", () => undefined); // whittle may end before it reads everything
      child.stdin!.end(options.stdin);
    }
    const out: Buffer[] = [];
    let err = "";
    child.stdout!.on("data", (d: Buffer) => out.push(d));
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (child.pid !== undefined) options.onStderr?.(err, child.pid);
    });
    child.on("error", reject);
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.on("close", (code, signal) =>
      resolvePromise({ code, signal, stdout: Buffer.concat(out), stderr: err }),
    );
  });
}

/** True when `sub` is a subsequence of `whole` (the output keeps bytes of the input, in order). */
export function isByteSubsequence(sub: Uint8Array, whole: Uint8Array): boolean {
  let j = 0;
  for (let i = 0; i < whole.length && j < sub.length; i++) if (whole[i] === sub[j]) j++;
  return j === sub.length;
}

/**
 * The shared json-obj-arr-87 case, rebuilt in a scratch directory: the input, and a test that wants
 * valid JSON whose value still shows 87; `env` gives the run a grammar cache of its own.
 */
export async function jsonObjArr87Case(): Promise<{
  dir: string;
  input: string;
  test: string;
  env: Record<string, string>;
}> {
  const dir = scratch();
  const input = join(dir, "input.json");
  writeFileSync(input, '{\n    "foo": "bar",\n    "baz": [ 6, 7, 12, 31, 77, 87 ]\n}\n');
  // Decided in this process (see oracle-server.ts): the same predicate as a `node -e` script.
  const t = await writePredicateScript(join(dir, "t.sh"), (bytes) => {
    try {
      return JSON.stringify(JSON.parse(bytes.toString("utf8"))).includes("87");
    } catch {
      return false;
    }
  });
  return { dir, input, test: t, env: { XDG_CACHE_HOME: join(dir, "cache") } };
}
