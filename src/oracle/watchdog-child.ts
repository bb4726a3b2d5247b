/**
 * The watchdog process (see watchdog.ts, which starts it). It outlives whittle by design: whittle may
 * die by any signal, SIGKILL included, and then this process kills the tests whittle left running,
 * removes the temporary file of an output write cut short and removes the run's temporary directory.
 *
 * Protocol: whittle writes lines to this process's stdin, a few bytes per test:
 *
 *     d<path>   the run directory (sent once, first)
 *     +<pgid>   a test started in the process group <pgid>
 *     -<pgid>   that group is gone
 *     t<json>   whittle is about to write the temporary file at the path <json> (a JSON string)
 *     u<json>   that file is gone (renamed over its target, or removed)
 *
 * When stdin reaches its end (whittle exited, however it ended: the kernel closes the pipe even after
 * SIGKILL) or this process gets SIGTERM, it cleans up and exits:
 *
 * 1. removes the temporary files still listed (whittle died while writing them);
 * 2. SIGTERM, then SIGCONT (a stopped test must wake up to die), to every group still listed and to
 *    every process still working for the run, in a group or not (run-processes.ts);
 * 3. after a short grace period, SIGKILL to whatever is left;
 * 4. once they are gone (or after a bounded wait), removes the run directory, making directories a
 *    test left read-only writable first (remove-tree.ts).
 *
 * Everything is done well within 2 s of whittle's end. The process runs in its own session (whittle
 * starts it detached), so the terminal's signals (Ctrl-C, Ctrl-Z, the SIGHUP of a closed terminal) do
 * not reach it; the ones that could reach it anyway are ignored, so that only the end of the pipe, or
 * SIGTERM, triggers the clean-up. It has no stderr (it must not hold whittle's open after whittle
 * is gone), so what it cannot remove stays without a word; whittle warns of it when it ends itself.
 *
 * It imports nothing but node:fs and two small modules that import nothing else, so that it starts
 * quickly.
 */
import { rmSync } from "node:fs";

import { removeTree } from "./remove-tree.js";
import { liveProcesses, processAlive, runProcesses } from "./run-processes.js";

/** Time the tests get between SIGTERM and SIGKILL. */
const GRACE_MS = 400;
/** How long to wait, after SIGKILL, for the processes to be gone before removing the directory anyway. */
const KILL_WAIT_MS = 800;
/** Polling interval while waiting. */
const POLL_MS = 20;
/**
 * While waiting, how often /proc is searched again for processes of the run (started meanwhile);
 * in between, only those already found are looked at. A search reads every process's descriptors.
 */
const SCAN_MS = 100;

/** whittle: it closes its descriptor on the run directory before it lets this process go. */
const WHITTLE_PID = process.ppid;
const groups = new Set<number>();
const tempFiles = new Set<string>();
let runDir: string | undefined;
let pending = "";
let cleaning = false;

for (const sig of ["SIGINT", "SIGHUP", "SIGQUIT", "SIGTSTP", "SIGTTIN", "SIGTTOU"] as const) {
  process.on(sig, () => undefined);
}
process.on("SIGTERM", () => void cleanUp());

process.stdin.on("data", (chunk: Buffer) => {
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) handle(line);
});
process.stdin.on("end", () => void cleanUp());
process.stdin.on("close", () => void cleanUp());
process.stdin.on("error", () => void cleanUp());

function handle(line: string): void {
  const kind = line[0];
  const rest = line.slice(1);
  if (kind === "d") runDir = rest;
  else if (kind === "+" || kind === "-") {
    const pgid = Number(rest);
    if (!Number.isSafeInteger(pgid) || pgid <= 1) return; // never signal init or "every process"
    if (kind === "+") groups.add(pgid);
    else groups.delete(pgid);
  } else if (kind === "t" || kind === "u") {
    let path: unknown;
    try {
      path = JSON.parse(rest);
    } catch {
      return; // cut short: the line was the last one written before whittle died
    }
    if (typeof path !== "string" || !path.startsWith("/")) return;
    if (kind === "t") tempFiles.add(path);
    else tempFiles.delete(path);
  }
}

/** Sends `sig` to a process group (target < 0) or a process; errors (already gone) are ignored. */
function send(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: gone; EPERM: not ours
  }
}

/**
 * Sends `sig` (with SIGCONT after SIGTERM) to every listed group that has a live member and to every
 * process of the run, and to those that appear while waiting, until none is left or `ms` have
 * passed. Each is signalled once. Returns whether none is left.
 */
async function stop(sig: NodeJS.Signals, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  const exclude = new Set([process.pid, WHITTLE_PID]);
  const signalled = new Set<number>();
  const hit = (target: number): void => {
    if (signalled.has(target)) return;
    signalled.add(target);
    send(target, sig);
    if (sig === "SIGTERM") send(target, "SIGCONT");
  };
  let alive: number[] = [];
  let scanAt = 0;
  for (;;) {
    const now = performance.now();
    if (alive.length === 0 || now >= scanAt) {
      const procs = liveProcesses();
      const found = runDir === undefined ? [] : runProcesses(runDir, procs, { groups, exclude });
      const liveGroups = new Set(procs.map((p) => p.pgid));
      for (const pgid of groups) if (liveGroups.has(pgid)) hit(-pgid);
      for (const { pid } of found) hit(pid);
      alive = found.map((p) => p.pid);
      if (alive.length === 0) return true;
      scanAt = now + SCAN_MS;
    } else {
      alive = alive.filter(processAlive);
      if (alive.length === 0) continue; // all gone: search once more before saying so
    }
    if (now >= deadline) return false;
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

async function cleanUp(): Promise<void> {
  if (cleaning) return;
  cleaning = true;
  if (pending !== "") handle(pending);
  try {
    for (const path of tempFiles) {
      try {
        rmSync(path, { force: true });
      } catch {
        // not a file (a directory took its name), or not removable: leave it
      }
    }
    if (!(await stop("SIGTERM", GRACE_MS))) await stop("SIGKILL", KILL_WAIT_MS);
    if (runDir !== undefined) removeTree(runDir);
  } catch {
    // nothing more can be done; exit anyway
  }
  process.exit(0);
}
