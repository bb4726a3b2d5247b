/**
 * Finding every process that works for a run, from /proc, also those that left their test's process
 * group. A test may start a daemon: `setsid` (a new session and process group), `cd /`, an
 * environment without the WHITTLE_ variables, a double fork (its parent is then init), stdin,
 * stdout and stderr closed. What such a process still carries is an open file descriptor: every
 * test is started with one on the run directory (descriptor RUN_DIR_FD, see CommandOracleOptions
 * .inheritFd), which every process it starts inherits, across setsid, fork and exec, unless it
 * closes it.
 *
 * A process works for the run when it is in one of the tests' process groups, or its working
 * directory is in the run directory, or its environment names a test directory of the run
 * (WHITTLE_TMPDIR), or it has a file descriptor open on the run directory or on anything in it; and
 * so does every descendant of such a process. What escapes all of these: a process that left its
 * group and its test's directory, dropped WHITTLE_TMPDIR from its environment, closed every
 * descriptor it inherited (as a daemon that closes all its files does) and whose parent is gone.
 *
 * Imports nothing but node:fs: the watchdog (watchdog-child.ts) uses it and must start quickly.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";

/** The descriptor on the run directory that every test inherits (CommandOracleOptions.inheritFd). */
export const RUN_DIR_FD = 4;

/** A live (not zombie) process. */
export interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
}

/**
 * The process `pid` from /proc if it is alive (not a zombie); undefined if it is gone, a zombie, or
 * there is no /proc.
 */
export function liveProcess(pid: number): Proc | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined; // gone (or no /proc)
  }
  // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]) };
}

/** The processes that are alive, from /proc (zombies excluded: they run nothing). */
export function liveProcesses(): Proc[] {
  const found: Proc[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = liveProcess(Number(entry));
    if (proc !== undefined) found.push(proc);
  }
  return found;
}

/**
 * The live descendants of the live process `rootPid` (not the root itself), read from the
 * `/proc/PID/task/TID/children` lists: a few files for a test that started few processes, where
 * liveProcesses reads every process on the machine (about 4 ms for 64 processes here, and a
 * speculative run at -j 8 cancels several tests at once). Undefined when the kernel has no such lists
 * (CONFIG_PROC_CHILDREN) or the root is gone: use descendantsOf(rootPid, liveProcesses()). The caller
 * checks that the root is alive (a zombie has none: its children went to a subreaper).
 */
export function descendantsByChildLists(rootPid: number): Proc[] | undefined {
  const childrenOf = (pid: number): number[] | undefined => {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      return undefined;
    }
    const children: number[] = [];
    for (const tid of tasks) {
      let list: string;
      try {
        list = readFileSync(`/proc/${pid}/task/${tid}/children`, "latin1");
      } catch (error) {
        // No such list on this kernel; a task that ended meanwhile has no children to give.
        if ((error as NodeJS.ErrnoException).code === "ENOENT" && tid === String(pid)) return undefined;
        continue;
      }
      for (const word of list.split(" ")) if (word !== "") children.push(Number(word));
    }
    return children;
  };
  const rootChildren = childrenOf(rootPid);
  if (rootChildren === undefined) return undefined;
  const found: Proc[] = [];
  const seen = new Set<number>([rootPid]);
  for (let queue = rootChildren; queue.length > 0;) {
    const next: number[] = [];
    for (const pid of queue) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      const proc = liveProcess(pid);
      // A zombie child runs nothing, but its own children (if any) were handed to a subreaper.
      if (proc === undefined) continue;
      found.push(proc);
      next.push(...(childrenOf(pid) ?? []));
    }
    queue = next;
  }
  return found;
}

/** Whether the process `pid` is alive (not a zombie). */
export function processAlive(pid: number): boolean {
  return liveProcess(pid) !== undefined;
}

/**
 * The descendants of `rootPid` among `procs` (children, their children, …; not the root itself), as
 * the parent links stand now: a process whose parent died before is not found.
 */
export function descendantsOf(rootPid: number, procs: readonly Proc[]): Proc[] {
  const children = new Map<number, Proc[]>();
  for (const p of procs) {
    const list = children.get(p.ppid);
    if (list) list.push(p);
    else children.set(p.ppid, [p]);
  }
  const found: Proc[] = [];
  const seen = new Set<number>([rootPid]);
  for (let queue = [rootPid]; queue.length > 0;) {
    const next: number[] = [];
    for (const pid of queue) {
      for (const child of children.get(pid) ?? []) {
        if (seen.has(child.pid)) continue;
        seen.add(child.pid);
        found.push(child);
        next.push(child.pid);
      }
    }
    queue = next;
  }
  return found;
}

/**
 * The names of the run directory: the one given and, if it differs, its physical path (symbolic
 * links resolved), which is how /proc shows paths.
 */
function runDirNames(runDir: string): string[] {
  try {
    const real = realpathSync(runDir);
    if (real !== runDir) return [runDir, real];
  } catch {
    // removed already: /proc shows it under the name it had, most likely the one given
  }
  return [runDir];
}

/** The processes of `procs` that work for the run in `runDir` (see the module comment). */
export function runProcesses(
  runDir: string,
  procs: readonly Proc[],
  options: { groups?: ReadonlySet<number>; exclude?: ReadonlySet<number> } = {},
): Proc[] {
  const { groups, exclude } = options;
  const names = runDirNames(runDir);
  // A path as /proc shows it: a removed directory gets " (deleted)" appended.
  const inside = (path: string): boolean =>
    names.some((n) => path === n || path.startsWith(`${n}/`) || path === `${n} (deleted)`);
  const envMarkers = names.map((n) => Buffer.from(`\0WHITTLE_TMPDIR=${n}/`));
  const works = (p: Proc): boolean => {
    if (groups?.has(p.pgid)) return true;
    try {
      if (inside(readlinkSync(`/proc/${p.pid}/cwd`))) return true;
    } catch {
      // gone, or not ours to inspect
    }
    try {
      // A leading NUL makes the marker match whole variables only; the first variable has none before it.
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${p.pid}/environ`)]);
      if (envMarkers.some((m) => environ.includes(m))) return true;
    } catch {
      // gone, or not ours
    }
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${p.pid}/fd`);
    } catch {
      return false;
    }
    for (const fd of fds) {
      try {
        if (inside(readlinkSync(`/proc/${p.pid}/fd/${fd}`))) return true;
      } catch {
        // closed meanwhile
      }
    }
    return false;
  };
  const found = new Set<number>();
  for (const p of procs) if (!exclude?.has(p.pid) && works(p)) found.add(p.pid);
  // Their descendants too: a child that closed the descriptor, cleaned its environment and left the
  // directory is still found while its parent lives. Repeat until nothing is added (parents may come
  // after their children in /proc's order).
  for (let added = true; added;) {
    added = false;
    for (const p of procs) {
      if (!found.has(p.pid) && found.has(p.ppid) && !exclude?.has(p.pid)) {
        found.add(p.pid);
        added = true;
      }
    }
  }
  return procs.filter((p) => found.has(p.pid));
}
