/**
 * C-Vise as the `large` section runs it: Debian's package (installed by the benchmark when it can:
 * as root with apt-get), `cvise --n 2` on a copy of the input, which it reduces in place, under a
 * wall-clock cap past which its process group gets SIGINT (then SIGKILL). Its interestingness test
 * is a script without arguments run in a folder holding the candidate under the input's name, so
 * the case's oracle.sh is called through a wrapper, which also counts the tests.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commandVersion, ensurePackage, type Ensured } from "./debian.js";

/** C-Vise's version, installing Debian's `cvise` first when it is missing and this process may. */
export function ensureCvise(): Ensured {
  return ensurePackage("cvise", () => commandVersion("cvise"), "large");
}

export interface CviseOptions {
  readonly input: string;
  readonly inputName: string;
  readonly oracle: string;
  /** `--not-c`: only C-Vise's language-neutral passes. */
  readonly notC: boolean;
  readonly capMs: number;
  /** A fresh folder: the working copy, the wrapper, the test log and C-Vise's temporary folders. */
  readonly dir: string;
}

export interface CviseProcess {
  /** The file C-Vise reduces in place: its best so far. */
  readonly file: string;
  readonly argv: string[];
  /** Resolves when C-Vise has exited (by itself or killed at the cap). */
  readonly done: Promise<{ exitCode: number | null; stoppedAtCap: boolean; wallMs: number; stderr: string }>;
  /** Oracle runs so far (the wrapper logs one line each). */
  tests(): number;
}

/** Starts C-Vise on a copy of the input in `dir`. */
export function startCvise(opts: CviseOptions): CviseProcess {
  const work = join(opts.dir, "work");
  const tmp = join(opts.dir, "tmp");
  mkdirSync(work, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const file = join(work, opts.inputName);
  copyFileSync(opts.input, file);
  const log = join(opts.dir, "tests.log");
  writeFileSync(log, "");
  const wrapper = join(opts.dir, "test.sh");
  const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  writeFileSync(
    wrapper,
    `#!/bin/sh\necho >> ${quote(log)}\nexec ${quote(opts.oracle)} ${quote(opts.inputName)}\n`,
    { mode: 0o755 },
  );
  const args = ["--n", "2", ...(opts.notC ? ["--not-c"] : []), wrapper, opts.inputName];
  const t0 = performance.now();
  // A process group of its own, so the cap stops C-Vise and every test it runs. TMPDIR keeps its
  // temporary folders inside the benchmark's scratch folder, removed at the end even after a kill.
  const child = spawn("cvise", args, {
    cwd: work,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let stoppedAtCap = false;
  let killTimer: NodeJS.Timeout | undefined;
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const cap = setTimeout(() => {
    stoppedAtCap = true;
    signalGroup("SIGINT");
    killTimer = setTimeout(() => signalGroup("SIGKILL"), 15_000);
  }, opts.capMs);
  const done = new Promise<{
    exitCode: number | null;
    stoppedAtCap: boolean;
    wallMs: number;
    stderr: string;
  }>((resolve) => {
    child.on("exit", (code, signal) => {
      const wallMs = performance.now() - t0;
      clearTimeout(cap);
      if (killTimer) clearTimeout(killTimer);
      // Whatever of its group is left (a test it had started) goes with it.
      signalGroup("SIGKILL");
      resolve({ exitCode: code ?? (signal ? -1 : null), stoppedAtCap, wallMs, stderr: stderr.trim() });
    });
  });
  return {
    file,
    argv: ["cvise", ...args.map((a) => a.replace(opts.dir, "."))],
    done,
    tests: () => (existsSync(log) ? readFileSync(log, "utf8").length : 0),
  };
}
