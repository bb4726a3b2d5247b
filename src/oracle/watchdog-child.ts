/**
 * The watchdog process (see watchdog.ts, which starts it). It outlives whittle by design: whittle may
 * die by any signal, SIGKILL included, and then this process kills the tests whittle left running and
 * removes the run's temporary directory.
 *
 * Protocol: whittle writes lines to this process's stdin, a few bytes per test:
 *
 *     d<path>   the run directory (sent once, first)
 *     +<pgid>   a test started in the process group <pgid>
 *     -<pgid>   that group is gone
 *
 * When stdin reaches its end (whittle exited, however it ended: the kernel closes the pipe even after
 * SIGKILL) or this process gets SIGTERM, it cleans up and exits:
 *
 * 1. SIGTERM, then SIGCONT (a stopped test must wake up to die), to every group still listed and to
 *    every process still working for the run (see `strays`);
 * 2. after a short grace period, SIGKILL to whatever is left;
 * 3. once they are gone (or after a bounded wait), removes the run directory.
 *
 * Everything is done well within 2 s of whittle's end. The process runs in its own session (whittle
 * starts it detached), so the terminal's signals (Ctrl-C, Ctrl-Z, the SIGHUP of a closed terminal) do
 * not reach it; the ones that could reach it anyway are ignored, so that only the end of the pipe, or
 * SIGTERM, triggers the clean-up.
 *
 * It imports nothing but node:fs, so that it starts quickly.
 */
import { readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";

/** Time the tests get between SIGTERM and SIGKILL. */
const GRACE_MS = 400;
/** How long to wait, after SIGKILL, for the processes to be gone before removing the directory anyway. */
const KILL_WAIT_MS = 800;
/** Polling interval while waiting. */
const POLL_MS = 20;

const groups = new Set<number>();
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
  }
}

/** A live (not zombie) process: its pid and process group. */
interface Proc {
  pid: number;
  pgid: number;
}

/** The processes that are alive, from /proc (zombies excluded: they run nothing). */
function liveProcesses(): Proc[] {
  const found: Proc[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || fields[0] === "X") continue;
      found.push({ pid: Number(entry), pgid: Number(fields[2]) });
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/**
 * Processes still working for this run although no listed group holds them: those whose working
 * directory is inside the run directory, or whose environment names a sandbox in it
 * (WHITTLE_TMPDIR=<run dir>/…, which every test inherits). This covers a test whose "+" line whittle
 * had no time to write, and processes that left their test's group (setsid).
 */
function strays(procs: readonly Proc[]): Proc[] {
  if (runDir === undefined) return [];
  const inside = `${runDir}/`;
  const marker = Buffer.from(`\0WHITTLE_TMPDIR=${inside}`);
  const self = process.pid;
  return procs.filter(({ pid }) => {
    if (pid === self) return false;
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(inside)) return true;
    } catch {
      // gone, or not ours to inspect
    }
    try {
      // A leading NUL makes the marker match whole variables only; the first variable has none before it.
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]);
      return environ.includes(marker);
    } catch {
      return false;
    }
  });
}

/** Sends `sig` to a process group (pgid > 0) or a process; errors (already gone) are ignored. */
function send(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: gone; EPERM: not ours
  }
}

/** Signals every listed group and every stray process; returns how many targets were alive. */
function signalAll(sig: NodeJS.Signals): number {
  const procs = liveProcesses();
  const liveGroups = new Set(procs.map((p) => p.pgid));
  let count = 0;
  for (const pgid of groups) {
    if (!liveGroups.has(pgid)) continue;
    count++;
    send(-pgid, sig);
    if (sig === "SIGTERM") send(-pgid, "SIGCONT");
  }
  for (const { pid } of strays(procs)) {
    count++;
    send(pid, sig);
    if (sig === "SIGTERM") send(pid, "SIGCONT");
  }
  return count;
}

/** Whether any listed group or stray process is still alive. */
function anyAlive(): boolean {
  const procs = liveProcesses();
  if (procs.some((p) => groups.has(p.pgid))) return true;
  return strays(procs).length > 0;
}

/** Polls until nothing is alive or `ms` have passed. */
async function waitUntilGone(ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (anyAlive()) {
    if (performance.now() >= deadline) return false;
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
  return true;
}

async function cleanUp(): Promise<void> {
  if (cleaning) return;
  cleaning = true;
  if (pending !== "") handle(pending);
  try {
    if (signalAll("SIGTERM") > 0 && !(await waitUntilGone(GRACE_MS))) {
      signalAll("SIGKILL");
      await waitUntilGone(KILL_WAIT_MS);
    }
    if (runDir !== undefined) rmSync(runDir, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // nothing more can be done; exit anyway
  }
  process.exit(0);
}
