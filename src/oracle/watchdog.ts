/**
 * The watchdog: a small process, started once per run, that cleans up after whittle when whittle
 * cannot (SIGKILL, a crash, anything). It is a `GroupTracker`: each test's process group goes down a
 * pipe to it, a few bytes per test, and so does each temporary file whittle writes its output
 * through; when the pipe closes — which the kernel does however whittle ends — it kills the groups
 * still listed and every other process of the run, removes the temporary files still listed and
 * the run directory. The protocol and the clean-up are described in watchdog-child.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";

import type { GroupTracker } from "./groups.js";

/** The watchdog's script, compiled next to this module. */
export const WATCHDOG_SCRIPT = fileURLToPath(new URL("./watchdog-child.js", import.meta.url));

export class Watchdog implements GroupTracker {
  readonly #child: ChildProcess;
  #broken = false;

  private constructor(child: ChildProcess) {
    this.#child = child;
  }

  /**
   * Starts a watchdog for the run directory `runDir`. Never throws: if the watchdog cannot be
   * started, or dies, the run goes on without it (whittle still cleans up whenever it can itself).
   */
  static start(runDir: string): Watchdog {
    // detached: its own session and process group, out of reach of the terminal's signals (Ctrl-C,
    // Ctrl-Z, hang-up) and of signals sent to whittle's process group. Its only open file is the pipe:
    // it must not hold whittle's stdout or stderr open after whittle is gone.
    const child = spawn(process.execPath, [WATCHDOG_SCRIPT], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    const watchdog = new Watchdog(child);
    child.on("error", () => (watchdog.#broken = true));
    child.on("exit", () => (watchdog.#broken = true));
    child.stdin?.on("error", () => (watchdog.#broken = true));
    // Neither the process nor the pipe may keep whittle's event loop alive.
    child.unref();
    (child.stdin as Socket | null)?.unref();
    watchdog.#send(`d${runDir}\n`);
    return watchdog;
  }

  /** The watchdog's pid (undefined if it could not be started). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  started(pgid: number): void {
    this.#send(`+${pgid}\n`);
  }

  ended(pgid: number): void {
    this.#send(`-${pgid}\n`);
  }

  /**
   * whittle is about to write the temporary file at the absolute path `path`: if whittle dies before
   * `gone(path)`, the watchdog removes it. JSON keeps a path with a newline on one line.
   */
  creating(path: string): void {
    this.#send(`t${JSON.stringify(path)}\n`);
  }

  /** The temporary file at `path` is gone (renamed over its target, or removed). */
  gone(path: string): void {
    this.#send(`u${JSON.stringify(path)}\n`);
  }

  /** Whether the watchdog is (as far as whittle knows) running and listening. */
  get listening(): boolean {
    return !this.#broken && this.#child.stdin?.writable === true;
  }

  /** Closes the pipe: the watchdog cleans up what is left and exits. */
  close(): void {
    this.#broken = true;
    this.#child.stdin?.end();
  }

  #send(line: string): void {
    if (this.#broken || !this.#child.stdin?.writable) return;
    this.#child.stdin.write(line);
  }
}
