/**
 * Reading a test's processes from /proc: the children lists (a few files) find the same descendants
 * as the scan of every process, and a process that is gone is told apart.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import {
  descendantsByChildLists,
  descendantsOf,
  liveProcess,
  liveProcesses,
} from "../../src/oracle/run-processes.js";

const linux = existsSync("/proc/self/stat");
const childLists = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

test(
  "the children lists find the descendants the full scan finds, across a group of their own",
  { skip: !childLists && "no /proc/PID/task/TID/children on this system" },
  async (t) => {
    // bash → (sleep, setsid bash → sleep): three descendants, one of them in a group of its own.
    const child = spawn("bash", ["-c", "sleep 30 & setsid bash -c 'sleep 30 & wait' & echo ready; wait"], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    t.after(() => {
      for (const p of descendantsOf(child.pid!, liveProcesses())) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // gone
        }
      }
      process.kill(-child.pid!, "SIGKILL");
    });
    await new Promise<void>((ready) => child.stdout.once("data", () => ready()));
    // Until the setsid'ed bash has started its sleep.
    let fromLists: number[] = [];
    for (let i = 0; i < 100 && fromLists.length < 3; i++) {
      await sleep(20);
      fromLists = (descendantsByChildLists(child.pid!) ?? []).map((p) => p.pid).sort();
    }
    const fromScan = descendantsOf(child.pid!, liveProcesses())
      .map((p) => p.pid)
      .sort();
    assert.equal(fromLists.length, 3);
    assert.deepEqual(fromLists, fromScan);
    const groups = new Set(descendantsByChildLists(child.pid!)!.map((p) => p.pgid));
    assert.equal(groups.size, 2, "the setsid'ed bash and its sleep are in a group of their own");
  },
);

test(
  "a process that is gone is not alive and has no descendants to list",
  { skip: !linux && "no /proc" },
  async () => {
    const child = spawn("true");
    await new Promise((done) => child.once("exit", done));
    assert.equal(liveProcess(child.pid!), undefined);
    assert.equal(descendantsByChildLists(child.pid!), undefined);
    assert.equal(liveProcess(process.pid)?.pid, process.pid);
  },
);
