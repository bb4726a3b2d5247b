/**
 * The "nothing is left behind" experiment, shared by test/cli/survivors.test.ts and the survivors
 * benchmark section: start the whittle command on a slow test whose processes can be found, end
 * whittle in one way (a signal, or a crash) at a chosen moment, and count, for the 2 s after whittle
 * ended, the processes of the run still alive and the temporary directories still there.
 *
 * Every test run appends its own pid and the pid of a background grandchild that ignores SIGTERM to a
 * file, so that a test killed only politely (SIGTERM) leaves something to find. Processes are also
 * found by their environment: every process of the run (whittle, the watchdog, each test and what it
 * started) inherits TMPDIR=<this run's fresh TMPDIR>.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { MAIN, scratch } from "./cli.js";
import { tmuxSession } from "./tmux.js";

/**
 * How whittle is ended: a signal sent to it, an uncaught exception or unhandled rejection inside it,
 * or (hangup) the real terminal it runs in closing (tmux killed): SIGHUP from the kernel, with a
 * terminal that fails every later write.
 */
export type Ending = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGQUIT" | "SIGKILL" | "throw" | "reject" | "hangup";
export const ENDINGS: readonly Ending[] = [
  "SIGINT",
  "SIGTERM",
  "SIGHUP",
  "SIGQUIT",
  "SIGKILL",
  "throw",
  "reject",
];

/** The exit status whittle must end with for each ending; undefined when no parent can see it. */
export const EXPECTED_EXIT: Record<
  Ending,
  { code: number | null; signal: NodeJS.Signals | null } | undefined
> = {
  SIGINT: { code: 130, signal: null },
  SIGTERM: { code: 130, signal: null },
  SIGHUP: { code: 129, signal: null },
  SIGQUIT: { code: 131, signal: null },
  SIGKILL: { code: null, signal: "SIGKILL" },
  throw: { code: 1, signal: null },
  reject: { code: 1, signal: null },
  hangup: undefined,
};

export interface SurvivorRun {
  ending: Ending;
  /** How long after the first test started whittle was ended (for crashes: asked to crash). */
  delayMs: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Test processes alive just before the signal, or (crashes) right after whittle ended. */
  aliveBefore: number;
  /** Whether the run directory existed then. */
  runDirBefore: boolean;
  /** Test processes started during the run (each test and its grandchild). */
  spawned: number;
  /** Processes of the run (tests, grandchildren, watchdog) still alive `limitMs` after whittle ended. */
  survivors: number[];
  /** Entries still in the run's TMPDIR `limitMs` after whittle ended. */
  leftovers: string[];
  /** Milliseconds from whittle's end until no process and no directory was left; undefined if never. */
  cleanMs: number | undefined;
}

/** Alive means running: a zombie (killed, waiting to be reaped) runs nothing. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return false;
  }
}

/** The live processes whose environment holds TMPDIR=`tmp` exactly. */
export function processesWithTmpdir(tmp: string): number[] {
  const marker = Buffer.from(`\0TMPDIR=${tmp}\0`);
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`)]);
      if (environ.includes(marker) && alive(Number(entry))) found.push(Number(entry));
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found;
}

/** A whittle that was started, and how to end it. */
interface Started {
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  end(sig: NodeJS.Signals | "hangup"): void;
  /** Everything whittle wrote to stderr (empty in a terminal). */
  stderr: Promise<string>;
}

/** whittle as a child of this process, stderr captured. */
function asChild(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Started {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return {
    ended: new Promise((done) => child.on("exit", (code, signal) => done({ code, signal }))),
    end: (sig) => process.kill(child.pid!, sig === "hangup" ? "SIGHUP" : sig),
    stderr: new Promise((done) => child.stderr.once("close", () => done(stderr))),
  };
}

/**
 * whittle typed into an interactive bash in a real terminal (tmux); ending it closes the terminal.
 * Its exit status is lost with the shell, so `ended` gives nulls once its process is gone.
 */
function inTerminal(args: readonly string[], tmp: string): Started {
  const terminal = tmuxSession();
  const quoted = args.map((a) => `'${a}'`).join(" ");
  terminal.keys(`TMPDIR='${tmp}' '${process.execPath}' ${quoted}`, "Enter");
  let pid: number | undefined;
  const isWhittle = (p: number): boolean => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, "latin1").includes(MAIN);
    } catch {
      return false;
    }
  };
  const ended = (async () => {
    for (;;) {
      pid ??= processesWithTmpdir(tmp).find(isWhittle);
      if (pid !== undefined && !alive(pid)) break;
      await sleep(10);
    }
    terminal.close();
    return { code: null, signal: null };
  })();
  return { ended, end: () => terminal.close(), stderr: Promise.resolve("") };
}

function readPids(path: string): number[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split(/\s+/).filter(Boolean).map(Number);
}

/**
 * Runs whittle on a slow test and ends it by `ending`, `delayMs` after the first test started (a
 * signal: at the first moment after that when a test process is alive); then watches for `limitMs`
 * (default 2000) after whittle ended.
 */
export async function endWhittle(
  ending: Ending,
  delayMs: number,
  options: { limitMs?: number; pollMs?: number } = {},
): Promise<SurvivorRun> {
  const { limitMs = 2000, pollMs = 50 } = options;
  const dir = scratch("whittle-survivors-");
  const tmp = join(dir, "tmp");
  const pids = join(dir, "pids");
  const input = join(dir, "in.txt");
  const test = join(dir, "slow.sh");
  try {
    writeFileSync(
      input,
      Array.from({ length: 40 }, (_, i) => (i === 29 ? "KEEP\n" : `line ${i}\n`)).join(""),
    );
    writeFileSync(
      test,
      `#!/usr/bin/env bash
(trap "" TERM; exec sleep 1000) &
echo $$ $! >> ${pids}
sleep 0.3
grep -q KEEP "$1"
`,
    );
    chmodSync(test, 0o755);
    mkdirSync(tmp); // whittle checks TMPDIR before anything else

    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
    delete env["WHITTLE_DEBUG"];
    // A crash is asked for through the documented test hook, timed from the start of the run; the
    // initial check takes about 0.3 s, so the delay lands at a comparable moment of the reduction.
    if (ending === "throw" || ending === "reject") env["WHITTLE_TEST_CRASH"] = `${ending}:${500 + delayMs}`;
    const args = [MAIN, input, "--atom=line", "-j", "2", "-o", join(dir, "out.txt"), "--test", test];
    const whittle = ending === "hangup" ? inTerminal(args, tmp) : asChild(args, env, dir);
    let exited = false;
    const ended = whittle.ended.then((exit) => {
      exited = true;
      return exit;
    });

    let aliveBefore = 0;
    let runDirBefore = false;
    const look = (): void => {
      aliveBefore = readPids(pids).filter(alive).length;
      runDirBefore = readdirSync(tmp).some((e) => e.startsWith("whittle-"));
    };
    if (ending === "throw" || ending === "reject") {
      // The crash's moment is not known here: look at whittle's end instead. On a crash whittle only
      // sends SIGTERM, which the grandchildren ignore, so they are still there right after it.
      let sawRunDir = false;
      while (!exited) {
        sawRunDir ||= readdirSync(tmp).some((e) => e.startsWith("whittle-"));
        await Promise.race([sleep(20), ended]);
      }
      look();
      runDirBefore = sawRunDir;
    } else {
      // Wait for the first test to start (at most 20 s on a loaded machine), then for the delay.
      for (let i = 0; i < 400 && !exited && readPids(pids).length === 0; i++) await sleep(50);
      await sleep(delayMs);
      // Between rounds no test runs for a few milliseconds: end whittle while one does.
      for (let i = 0; i < 200 && !exited && readPids(pids).filter(alive).length === 0; i++) await sleep(10);
      if (!exited) {
        look();
        whittle.end(ending);
      }
    }
    const exit = await ended;
    const endedAt = performance.now();

    let cleanMs: number | undefined;
    let survivors: number[] = [];
    let leftovers: string[] = [];
    for (;;) {
      const elapsed = performance.now() - endedAt;
      survivors = [...new Set([...readPids(pids).filter(alive), ...processesWithTmpdir(tmp)])];
      leftovers = readdirSync(tmp);
      if (survivors.length === 0 && leftovers.length === 0) {
        cleanMs = elapsed;
        break;
      }
      if (elapsed >= limitMs) break;
      await sleep(pollMs);
    }
    // Whatever is left must not disturb the next run.
    for (const pid of survivors) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    return {
      ending,
      delayMs,
      ...exit,
      stderr: await whittle.stderr,
      aliveBefore,
      runDirBefore,
      spawned: readPids(pids).length,
      survivors,
      leftovers,
      cleanMs,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
