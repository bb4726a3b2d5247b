/**
 * Tests through a real Redis and real worker processes (`whittle worker`): each test starts its own
 * `redis-server` on a random loopback port, without persistence, in a scratch directory. Skipped,
 * with a visible message, where redis-server is not installed.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, describe, test } from "node:test";

import { Queue } from "bullmq";
import { Redis } from "ioredis";

import { commandDigest, queueName, REFUSED, type TestJobData } from "../../src/queue/protocol.js";
import { FIXTURES, MAIN, runWhittle, scratch, type CliRun } from "../helpers/cli.js";
import { MOCKS } from "../helpers/mock.js";

const HAVE_REDIS = spawnSync("redis-server", ["--version"]).status === 0;

/** Everything a test started, stopped at the end whatever happened. */
const children = new Set<ChildProcess>();
const clients = new Set<Redis>();
after(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const client of clients) client.disconnect();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A redis-server of the test's own; `stop()` and `start()` again on the same port (no data kept). */
class TestRedis {
  child: ChildProcess | undefined;
  readonly dir = scratch("whittle-redis-");
  constructor(
    readonly port: number,
    readonly extra: string[] = [],
  ) {}

  url(auth = ""): string {
    return `redis://${auth}127.0.0.1:${this.port}/0`;
  }

  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    const child = spawn("redis-server", [...args, "--dir", this.dir, ...this.extra], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    this.child = child;
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    await until("redis-server to accept connections", () => /Ready to accept connections/.test(out));
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await gone;
    children.delete(child);
  }

  client(password?: string): Redis {
    const client = new Redis({
      port: this.port,
      host: "127.0.0.1",
      ...(password ? { password } : {}),
      maxRetriesPerRequest: null,
    });
    // Disconnected at the end: a client left connecting to a stopped server keeps the file's process alive.
    clients.add(client);
    return client;
  }
}

async function redis(extra: string[] = []): Promise<TestRedis> {
  const r = new TestRedis(await freePort(), extra);
  await r.start();
  return r;
}

/** A `whittle worker` process; `log` is what it printed so far. */
class TestWorker {
  log = "";
  exited: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    children.add(child);
    child.stderr!.on("data", (d: Buffer) => (this.log += d.toString()));
    this.exited = new Promise((done) => child.once("exit", (code) => done(code)));
  }
  ran(): number {
    return (this.log.match(/ran job/g) ?? []).length;
  }
}

async function worker(
  url: string,
  command: string[],
  options: { jobs?: number; env?: Record<string, string> } = {},
): Promise<TestWorker> {
  const child = spawn(
    process.execPath,
    [MAIN, "worker", url, `--jobs=${options.jobs ?? 1}`, "--", ...command],
    {
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const w = new TestWorker(child);
  await until("the worker to start", () => /running \[/.test(w.log) || child.exitCode !== null);
  assert.equal(child.exitCode, null, w.log);
  return w;
}

/**
 * A test script that takes `delay` seconds, marks that it runs with a file named by its pid in
 * $MARK_DIR (the worker's environment), and then asks the mock example's oracle.
 */
function slowOracle(letter: string, delay: number): string {
  const path = join(scratch(), `slow-${letter}.sh`);
  writeFileSync(
    path,
    `#!/usr/bin/env bash\n[ -n "$MARK_DIR" ] && echo > "$MARK_DIR/run.$$"\nsleep ${delay}\n` +
      `bash ${join(FIXTURES, "mock", `oracle-${letter}.sh`)} "$1"; s=$?\n[ -n "$MARK_DIR" ] && rm -f "$MARK_DIR/run.$$"\nexit $s\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

const BASE = ["--atom=line", "--timeout=60", "--no-dd-star"];

/** Reduces `input` with `command`, locally with -j 1 or through `queue`; the output and --stats. */
async function reduceWith(
  input: string,
  command: string[],
  extra: string[],
): Promise<{ run: CliRun; output: string; stats: Record<string, unknown> }> {
  const dir = scratch();
  const output = join(dir, "out");
  const stats = join(dir, "stats.json");
  const run = await runWhittle([
    input,
    ...BASE,
    ...extra,
    `-o${output}`,
    `--stats=${stats}`,
    "--",
    ...command,
  ]);
  assert.equal(run.code, 0, run.stderr);
  return {
    run,
    output: readFileSync(output, "utf8"),
    stats: JSON.parse(readFileSync(stats, "utf8")) as Record<string, unknown>,
  };
}

function mockInput(letter: string): string {
  const mock = MOCKS.find((m) => m.name.toLowerCase() === letter)!;
  return join(FIXTURES, "mock", mock.elements.length === 8 ? "input-8.txt" : "input-100.txt");
}

describe("whittle --queue and whittle worker, with a real Redis", { concurrency: false }, () => {
  if (!HAVE_REDIS) {
    test("skipped: redis-server is not installed", (t) => {
      t.skip("redis-server not found in PATH; the queue tests were not run (apt-get install redis-server)");
    });
    return;
  }

  for (const letter of ["a", "b", "c", "d"]) {
    test(`mock example ${letter.toUpperCase()}: through the queue with 2 workers, the result of -j 1`, async () => {
      const r = await redis();
      const oracle = join(FIXTURES, "mock", `oracle-${letter}.sh`);
      const command = [oracle, "{}"];
      const workers = await Promise.all([worker(r.url(), command, { jobs: 2 }), worker(r.url(), command)]);
      const local = await reduceWith(mockInput(letter), command, ["-j1"]);
      const queued = await reduceWith(mockInput(letter), command, [`--queue=${r.url()}`]);
      assert.equal(queued.output, local.output);
      const q = queued.stats["queue"] as {
        workers: number;
        capacity: number;
        byWorker: Record<string, number>;
      };
      assert.equal(q.workers, 2);
      assert.equal(q.capacity, 3);
      // Both workers took tests.
      assert.ok(
        workers.every((w) => w.ran() > 0),
        workers.map((w) => w.log).join("\n"),
      );
      assert.match(queued.run.stderr, /2 workers connected for this command \(3 tests at once\)/);
      for (const w of workers) w.child.kill("SIGINT");
      for (const w of workers) {
        assert.equal(await w.exited, 0);
        assert.match(w.log, /ran \d+ tests \(/);
      }
      await r.stop();
    });
  }

  test("a grammar case (JSON through tree-sitter): through the queue, the result of -j 1", async () => {
    const r = await redis();
    const dir = scratch();
    const input = join(dir, "input.json");
    writeFileSync(input, '{\n  "foo": "bar",\n  "baz": [6, 7, 12, 31, 77, 87],\n  "q": {"x": 87}\n}\n');
    const check = join(dir, "t.sh");
    writeFileSync(
      check,
      `#!/usr/bin/env bash\ngrep -q 87 "$1" && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1"\n`,
    );
    chmodSync(check, 0o755);
    const command = [check, "{}"];
    const workers = await Promise.all([worker(r.url(), command), worker(r.url(), command)]);
    const extra = ["--timeout=60"];
    const runs = [];
    for (const how of [["-j1"], [`--queue=${r.url()}`]]) {
      const out = join(scratch(), "out.json");
      const run = await runWhittle([input, ...extra, ...how, `-o${out}`, "--", ...command]);
      assert.equal(run.code, 0, run.stderr);
      runs.push(readFileSync(out, "utf8"));
    }
    assert.equal(runs[1], runs[0]);
    for (const w of workers) w.child.kill("SIGINT");
    await Promise.all(workers.map((w) => w.exited));
    await r.stop();
  });

  test("kill -9 of a worker mid-test: its test runs again elsewhere and counts once", async () => {
    const r = await redis();
    const command = [slowOracle("a", 0.3), "{}"];
    const marks = [scratch(), scratch()];
    const doomed = await worker(r.url(), command, { env: { MARK_DIR: marks[0]! } });
    const survivor = await worker(r.url(), command, { env: { MARK_DIR: marks[1]! } });
    const local = await reduceWith(mockInput("a"), command, ["-j1"]);
    const running = reduceWith(mockInput("a"), command, [`--queue=${r.url()}`, "-j1"]);
    // Once the doomed worker has run a few tests, and while it runs one.
    await until(
      "the doomed worker to be mid-test",
      () => doomed.ran() >= 3 && readdirSync(marks[0]!).length > 0,
      60_000,
    );
    doomed.child.kill("SIGKILL");
    const queued = await running;
    assert.equal(queued.output, local.output);
    // Counted once: with one test at a time, exactly the tests of the local run.
    assert.equal(queued.stats["tests"], local.stats["tests"]);
    assert.ok(survivor.ran() > 0);
    // The killed worker's test did not outlive it (its watchdog ended the test's group).
    for (const mark of readdirSync(marks[0]!)) {
      const pid = Number(mark.replace("run.", ""));
      await until(`the killed worker's test ${pid} to end`, () => !alive(pid), 10_000);
    }
    survivor.child.kill("SIGINT");
    await survivor.exited;
    await r.stop();
  });

  test("a worker refuses a job whose command is not its own, and runs nothing", async () => {
    const r = await redis();
    const marks = scratch();
    const command = [slowOracle("a", 0), "{}"];
    const w = await worker(r.url(), command, { env: { MARK_DIR: marks } });
    // Someone with write access to Redis puts a job for another command into this worker's queue.
    const queue = new Queue<TestJobData>(queueName(commandDigest(command)), { connection: r.client() });
    const data: TestJobData = {
      runId: "abc123",
      digest: commandDigest(["/bin/sh", "-c", "touch /tmp/owned"]),
      fileName: "x.txt",
      timeoutMs: 1000,
      candidate: Buffer.from("5\n8\n").toString("base64"),
    };
    const client = r.client();
    await client.set("whittle:run:abc123", "1", "PX", 60_000);
    const job = await queue.add("test", data, { jobId: "abc123-1" });
    await until("the job to be refused", async () => (await job.getState()) === "failed");
    const failed = await queue.getJob("abc123-1");
    assert.equal(failed?.failedReason, REFUSED);
    assert.match(w.log, /refused job abc123-1/);
    assert.deepEqual(readdirSync(marks), []);
    // A reduction that names another command finds no worker for it, and says so.
    const other = slowOracle("b", 0);
    const dir = scratch();
    // Interrupted once it has said so (a fixed delay failed on a loaded machine: whittle was still
    // connecting); after a minute regardless, so that a missing line fails the test, not hangs it.
    let interrupted = false;
    const interrupt = (pid: number) => {
      if (!interrupted) process.kill(pid, "SIGINT");
      interrupted = true;
    };
    let fallback: NodeJS.Timeout | undefined;
    const run = runWhittle(
      [mockInput("a"), ...BASE, `--queue=${r.url()}`, `-o${join(dir, "o")}`, "--", other, "{}"],
      {
        onSpawn: (pid) => (fallback = setTimeout(() => interrupt(pid), 60_000)),
        onStderr: (text, pid) => {
          if (/workers? connected for this command/.test(text)) interrupt(pid);
        },
      },
    );
    const result = await run;
    clearTimeout(fallback);
    assert.match(
      result.stderr,
      /0 workers connected for this command \(0 tests at once\); 1 other worker runs another command/,
    );
    assert.equal(result.code, 130);
    await queue.close();
    client.disconnect();
    w.child.kill("SIGINT");
    assert.match(await w.exited.then(() => w.log), /refused 1/);
    await r.stop();
  });

  test("the reducer killed mid-run: its tests are killed and its jobs leave Redis", async () => {
    const r = await redis();
    const marks = scratch();
    const command = [slowOracle("a", 30), "{}"];
    const w = await worker(r.url(), command, { jobs: 2, env: { MARK_DIR: marks } });
    const dir = scratch();
    let pid = 0;
    const run = runWhittle(
      [mockInput("a"), ...BASE, `--queue=${r.url()}`, `-o${join(dir, "o")}`, "--", ...command],
      {
        onSpawn: (p) => (pid = p),
      },
    );
    // The initial check runs on the worker: kill the reducer then, and once more jobs wait.
    await until("the initial check to run on the worker", () => readdirSync(marks).length > 0);
    process.kill(pid, "SIGKILL");
    await run;
    const client = r.client();
    const queue = new Queue(queueName(commandDigest(command)), { connection: r.client() });
    // Within the run key's lifetime (5 s) and a heartbeat, the worker kills the test and drops it.
    await until(
      "no job of the dead run to be active",
      async () => (await queue.getActiveCount()) === 0,
      15_000,
    );
    for (const mark of readdirSync(marks)) {
      const testPid = Number(mark.replace("run.", ""));
      await until(`the dead run's test ${testPid} to end`, () => !alive(testPid), 5_000);
    }
    await until("nothing of the run to be left in Redis", async () => {
      const keys = await client.keys("*");
      return !keys.some((k) => k.startsWith("whittle:run:") || /:[0-9a-f]{12}-\d+$/.test(k));
    });
    assert.match(w.log, /killed job .*: its run is gone/);
    await queue.close();
    client.disconnect();
    w.child.kill("SIGINT");
    await w.exited;
    await r.stop();
  });

  test("Redis stopped and started again mid-run: waited out, with the -j 1 result", async () => {
    const r = await redis();
    const command = [slowOracle("a", 0.2), "{}"];
    const workers = await Promise.all([worker(r.url(), command), worker(r.url(), command)]);
    const local = await reduceWith(mockInput("a"), command, ["-j1"]);
    const running = reduceWith(mockInput("a"), command, [`--queue=${r.url()}`]);
    await until("some tests to run", () => workers[0].ran() + workers[1].ran() >= 4, 60_000);
    await r.stop();
    await sleep(2000);
    await r.start();
    const queued = await running;
    assert.equal(queued.output, local.output);
    assert.match(
      queued.run.stderr,
      /lost the connection to Redis at redis:\/\/127\.0\.0\.1:\d+\/0 .*waiting for it/,
    );
    assert.match(queued.run.stderr, /connected to Redis at .* again/);
    for (const w of workers) w.child.kill("SIGINT");
    await Promise.all(workers.map((w) => w.exited));
    await r.stop();
  });

  test("AUTH: the password from the URL or $WHITTLE_REDIS_PASSWORD, never printed", async () => {
    const secret = "s3cret-pw";
    const r = await redis(["--requirepass", secret]);
    const oracle = join(FIXTURES, "mock", "oracle-a.sh");
    const command = [oracle, "{}"];
    const w = await worker(r.url(), command, { env: { WHITTLE_REDIS_PASSWORD: secret } });
    const local = await reduceWith(mockInput("a"), command, ["-j1"]);
    const queued = await reduceWith(mockInput("a"), command, [`--queue=${r.url(`:${secret}@`)}`, "-v"]);
    assert.equal(queued.output, local.output);
    assert.ok(!queued.run.stderr.includes(secret) && !JSON.stringify(queued.stats).includes(secret));
    assert.equal((queued.stats["queue"] as { url: string }).url, `redis://:***@127.0.0.1:${r.port}/0`);
    w.child.kill("SIGINT");
    await w.exited;
    assert.ok(!w.log.includes(secret), w.log);
    // A wrong password is no outage: exit 2 at once, the password masked.
    const wrong = await runWhittle([
      mockInput("a"),
      ...BASE,
      `--queue=${r.url(":nope@")}`,
      `-o${join(scratch(), "o")}`,
      "--",
      ...command,
    ]);
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.ok(!wrong.stderr.includes("nope"), wrong.stderr);
    assert.match(wrong.stderr, /Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0 refused the login: WRONGPASS/);
    const badWorker = spawnSync(process.execPath, [MAIN, "worker", r.url(":nope@"), "--", ...command], {
      encoding: "utf8",
    });
    assert.equal(badWorker.status, 2, badWorker.stderr);
    assert.ok(!badWorker.stderr.includes("nope"), badWorker.stderr);
    await r.stop();
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
