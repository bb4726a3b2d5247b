/**
 * A redis-server of the benchmark's own (the distributed section): on a free loopback port, without
 * persistence, its files in a scratch folder; and `whittle worker` processes attached to it. Both
 * are stopped by the caller; `stopAll` ends whatever is left.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

/** Whether redis-server is installed (Debian: apt-get install redis-server). */
export function haveRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

/** Resolves once `check` holds on the text a process printed, rejects when it exits first or after `limitMs`. */
function waitFor(
  child: ChildProcess,
  text: () => string,
  check: RegExp,
  what: string,
  limitMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`${what}: not ready after ${limitMs} ms: ${text()}`)),
      limitMs,
    );
    const poll = setInterval(() => {
      if (check.test(text())) done();
    }, 20);
    const onExit = (code: number | null): void => done(new Error(`${what} exited (${code}): ${text()}`));
    child.once("exit", onExit);
    function done(error?: Error): void {
      clearTimeout(timer);
      clearInterval(poll);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve();
    }
  });
}

/** Sends SIGTERM (or `signal`) and resolves when the process has exited. */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  return gone;
}

export interface BenchRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface RedisStartOptions {
  /** More redis-server options (e.g. `--requirepass`). */
  readonly extra?: readonly string[];
  /** TLS only, with this certificate and key (PEM files); clients need no certificate of their own. */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
}

/** Starts redis-server on a free loopback port and waits until it accepts connections. */
export async function startRedis(scratchDir: string, options: RedisStartOptions = {}): Promise<BenchRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(scratchDir, "redis-"));
  const tls = options.tls;
  const listen = tls
    ? [
        ...["--port", "0", "--tls-port", String(port), "--tls-cert-file", tls.certFile],
        ...["--tls-key-file", tls.keyFile, "--tls-ca-cert-file", tls.certFile, "--tls-auth-clients", "no"],
      ]
    : ["--port", String(port)];
  const persistence = ["--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn(
    "redis-server",
    [...listen, "--bind", "127.0.0.1", ...persistence, ...(options.extra ?? [])],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  await waitFor(child, () => out, /Ready to accept connections/, "redis-server", 20_000);
  const scheme = tls ? "rediss" : "redis";
  return { url: `${scheme}://127.0.0.1:${port}/0`, port, stop: () => stopProcess(child) };
}

export interface BenchWorker {
  readonly child: ChildProcess;
  /** What it printed so far (stderr). */
  log(): string;
  /** SIGINT (its documented stop: running tests killed and handed back) and wait for the exit. */
  stop(): Promise<void>;
}

/** Starts `whittle worker URL --jobs 1 -- CMD…` and waits until it says what it runs. */
export async function startWorker(
  main: string,
  url: string,
  command: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<BenchWorker> {
  const child = spawn(process.execPath, [main, "worker", url, "--jobs", "1", "-q", "--", ...command], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  await waitFor(child, () => log, /running \[/, "whittle worker", 30_000);
  return { child, log: () => log, stop: () => stopProcess(child, "SIGINT") };
}
