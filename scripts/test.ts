/**
 * Runs the compiled test files with node's test runner. `npm test` runs one file more at a time
 * than the machine has cores: the suite is mostly whittle processes and their test processes, which
 * also wait (tests that sleep or time out, processes starting), and node's default (one file at a
 * time on two cores) leaves a core idle. On the 2-core development machine the tests took 240 s
 * two files at a time and 213 s three at a time (one run each, 2026-11-27). `--slow` runs the
 * `*.slow.test.js` files instead, one at a time: some of them measure time or memory. Any other
 * argument goes to `node --test` after ours (so `--test-concurrency=1` given there wins).
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const args = process.argv.slice(2);
const slow = args.includes("--slow");
const passOn = args.filter((arg) => arg !== "--slow");

const files = readdirSync(join(root, "dist/test"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.js") && file.endsWith(".slow.test.js") === slow)
  .map((file) => relative(root, join(root, "dist/test", file)))
  .sort();

const child = spawn(
  process.execPath,
  [
    "--test",
    "--test-reporter=spec",
    "--test-timeout=300000",
    `--test-concurrency=${slow ? 1 : availableParallelism() + 1}`,
    ...passOn,
    ...files,
  ],
  { cwd: root, stdio: "inherit" },
);
// Ctrl-C reaches node --test through the terminal's process group; a signal sent to this process
// alone is passed on. Either way this process ends when node --test does, never before.
process.on("SIGINT", () => undefined);
for (const signal of ["SIGTERM", "SIGHUP"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
