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
 *
 * Also (issue 21): finding processes by a marker in their command line (a daemon may clean its
 * environment), running whittle as a user that permission bits apply to, and SIGKILL during an output
 * write (killDuringOutputWrite), shared with test/cli/leftovers.test.ts.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isByteSubsequence, MAIN, scratch } from "./cli.js";
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

/** The live processes whose command line contains `marker` (e.g. a unique `sleep 1000.NNNN`). */
export function processesWithCommandLine(marker: string): number[] {
  const needle = Buffer.from(marker);
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`).includes(needle) && alive(Number(entry))) {
        found.push(Number(entry));
      }
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** SIGKILLs every live process whose command line contains `marker`; returns how many there were. */
export function killByCommandLine(marker: string): number {
  const pids = processesWithCommandLine(marker);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  return pids.length;
}

/** A number unique to this call, for `sleep 1000.<number>` markers. */
export function uniqueDigits(): string {
  return `${process.pid}${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;
}

/**
 * How to run a command as a user that file permissions apply to: nothing to add when this process
 * is not root; as root, `setpriv` to nobody and its group (a prefix for the command line).
 * `undefined` when this process is root and cannot switch (no setpriv, no user nobody).
 */
export function unprivileged(): { prefix: string[] } | undefined {
  if ((process.getuid?.() ?? 0) !== 0) return { prefix: [] };
  const id = (args: string[]): number | undefined => {
    const run = spawnSync("id", args, { encoding: "utf8" });
    return run.status === 0 ? Number(run.stdout.trim()) : undefined;
  };
  const nobody = id(["-u", "nobody"]);
  const group = id(["-g", "nobody"]);
  if (nobody === undefined || group === undefined || nobody === 0) return undefined;
  const prefix = ["setpriv", `--reuid=${nobody}`, `--regid=${group}`, "--clear-groups"];
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), "id", "-u"], { encoding: "utf8" });
  if (probe.status !== 0 || Number(probe.stdout.trim()) !== nobody) return undefined;
  // The checkout may sit where that user cannot read it (under /root): then it cannot run whittle.
  const reads = spawnSync(prefix[0]!, [...prefix.slice(1), process.execPath, MAIN, "--version"]);
  if (reads.status !== 0) return undefined;
  return { prefix };
}

/** A run of whittle SIGKILLed while it wrote its output (see killDuringOutputWrite). */
export interface WriteKillRun {
  /** Whether whittle was killed while its temporary output file existed (else it ended first). */
  caught: boolean;
  /** Size of the temporary file just before the kill. */
  tempBytes: number;
  /** `.*.whittle-*.tmp` files beside the output `limitMs` after the kill. */
  leftovers: string[];
  /** Milliseconds from the kill until no temporary file was left; undefined if never. */
  cleanMs: number | undefined;
  /** The output then: absent, the input itself, a smaller interesting result, or anything else. */
  output: "absent" | "input" | "smaller" | "broken";
}

/** `megabytes` of numbered lines with "BUG" on one line near the middle. */
export function bigInput(megabytes: number): Buffer {
  const lines: string[] = [];
  const target = megabytes * 1024 * 1024;
  let size = 0;
  for (let i = 0; size < target; i++) {
    const line = i === 400_000 ? "BUG\n" : `line ${i} of a big input\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(""));
}

/**
 * Runs whittle on `input` (big, so that writing the output takes a while) with `-o`, waits until its
 * temporary output file `.out.txt.whittle-PID.tmp` exists (with `later`: once the output exists,
 * i.e. a write after the first) and then `afterMs` more, SIGKILLs whittle and watches the output's
 * directory for `limitMs`.
 */
export async function killDuringOutputWrite(
  input: Buffer,
  options: { afterMs?: number; limitMs?: number; later?: boolean } = {},
): Promise<WriteKillRun> {
  const { afterMs = 0, limitMs = 2000, later = false } = options;
  const dir = scratch("whittle-write-kill-");
  try {
    const inputPath = join(dir, "in.txt");
    writeFileSync(inputPath, input);
    const test = join(dir, "t.sh");
    writeFileSync(test, '#!/usr/bin/env bash\ngrep -q BUG "$1"\n');
    chmodSync(test, 0o755);
    const outDir = join(dir, "out");
    mkdirSync(outDir);
    const output = join(outDir, "out.txt");
    const child = spawn(process.execPath, [MAIN, inputPath, "--atom=line", "-o", output, "--test", test], {
      cwd: dir,
      stdio: "ignore",
    });
    const ended = new Promise<void>((done) => child.once("exit", () => done()));
    let exited = false;
    void ended.then(() => (exited = true));
    const temp = join(outDir, `.out.txt.whittle-${child.pid}.tmp`);
    const tempSize = (): number | undefined => {
      try {
        return statSync(temp).size;
      } catch {
        return undefined;
      }
    };
    // Wait (at most 60 s) for the temporary file, then for `afterMs` while it is being written.
    const deadline = performance.now() + 60_000;
    const waiting = (): boolean => tempSize() === undefined || (later && !existsSync(output));
    while (!exited && waiting() && performance.now() < deadline) await sleep(1);
    if (afterMs > 0) await sleep(afterMs);
    const tempBytes = tempSize();
    const caught = !exited && tempBytes !== undefined;
    child.kill("SIGKILL");
    await ended;
    const killedAt = performance.now();
    const isTemp = (name: string): boolean => /^\..*\.whittle-\d+\.tmp$/.test(name);
    let leftovers: string[] = [];
    let cleanMs: number | undefined;
    for (;;) {
      const elapsed = performance.now() - killedAt;
      leftovers = readdirSync(outDir).filter(isTemp);
      if (leftovers.length === 0) {
        cleanMs = elapsed;
        break;
      }
      if (elapsed >= limitMs) break;
      await sleep(20);
    }
    let result: WriteKillRun["output"] = "absent";
    if (existsSync(output)) {
      const written = readFileSync(output);
      if (written.equals(input)) result = "input";
      else if (written.includes("BUG") && isByteSubsequence(written, input)) result = "smaller";
      else result = "broken";
    }
    return { caught, tempBytes: tempBytes ?? 0, leftovers, cleanMs, output: result };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
