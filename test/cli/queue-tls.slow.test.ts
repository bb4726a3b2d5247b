/**
 * `rediss://`: the queue through a real redis-server that speaks TLS only, with a self-signed
 * certificate made by openssl for the test. Skipped, with a visible message, where redis-server or
 * openssl is missing or redis-server was built without TLS.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import {
  haveRedisServer,
  startRedis,
  startWorker,
  type BenchRedis,
  type BenchWorker,
} from "../../bench/lib/redis-server.js";
import { FIXTURES, MAIN, runWhittle, scratch } from "../helpers/cli.js";

const SECRET = "tls-s3cret";
const INPUT = join(FIXTURES, "mock", "input-8.txt");
const COMMAND = [join(FIXTURES, "mock", "oracle-a.sh"), "{}"];
const BASE = ["--atom=line", "--timeout=60", "--no-dd-star"];

/** Why the tests cannot run here, or undefined. */
function missing(): string | undefined {
  if (!haveRedisServer()) return "redis-server not found in PATH (apt-get install redis-server)";
  if (spawnSync("openssl", ["version"]).status !== 0) return "openssl not found in PATH";
  return undefined;
}

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day. */
function makeCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const made = spawnSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", keyFile, "-out", certFile],
    ],
    { encoding: "utf8" },
  );
  assert.equal(made.status, 0, made.stderr);
  return { certFile, keyFile };
}

describe("whittle --queue rediss:// and whittle worker over TLS", { concurrency: false }, () => {
  const why = missing();
  if (why) {
    test("skipped: the TLS queue tests need redis-server and openssl", (t) => {
      t.skip(`${why}; the rediss:// tests were not run`);
    });
    return;
  }
  const dir = scratch("whittle-tls-");
  const cert = makeCertificate(dir);
  let redis: BenchRedis | undefined;
  let noTls: string | undefined;
  const started: BenchWorker[] = [];
  before(async () => {
    try {
      redis = await startRedis(dir, { tls: cert, extra: ["--requirepass", SECRET] });
    } catch (error) {
      // Debian's redis-server has TLS; a build without it refuses the tls options.
      noTls = error instanceof Error ? error.message.slice(0, 300) : String(error);
    }
  });
  after(async () => {
    await Promise.all(started.map((w) => w.stop()));
    await redis?.stop();
  });
  const url = (auth = ""): string => redis!.url.replace("rediss://", `rediss://${auth}`);
  const trusted = { NODE_EXTRA_CA_CERTS: cert.certFile };

  test("a reduction through rediss:// with a worker: the -j 1 result, the password never shown", async (t) => {
    if (noTls) return t.skip(`redis-server did not start with TLS (built without it?): ${noTls}`);
    const worker = await startWorker(MAIN, url(), COMMAND, dir, {
      ...trusted,
      WHITTLE_REDIS_PASSWORD: SECRET,
    });
    started.push(worker);
    const outputs: string[] = [];
    for (const how of [["-j1"], [`--queue=${url(`:${SECRET}@`)}`, "-v"]]) {
      const out = join(scratch(), "out.txt");
      const run = await runWhittle([INPUT, ...BASE, ...how, `-o${out}`, "--", ...COMMAND], { env: trusted });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!run.stderr.includes(SECRET), run.stderr);
      // The host is an address: no SNI for it, so Node has nothing to warn about.
      assert.doesNotMatch(run.stderr, /DeprecationWarning|DEP0123/);
      outputs.push(readFileSync(out, "utf8"));
      if (how.length > 1) assert.match(run.stderr, /1 worker connected for this command/);
    }
    assert.equal(outputs[1], outputs[0]);
    await worker.stop();
    assert.match(worker.log(), /ran \d+ tests/);
    assert.ok(!worker.log().includes(SECRET), worker.log());
    assert.doesNotMatch(worker.log(), /DeprecationWarning/);
  });

  test("a certificate TLS does not trust: exit 2 at once, saying how to trust it", async (t) => {
    if (noTls) return t.skip(`redis-server did not start with TLS (built without it?): ${noTls}`);
    const run = await runWhittle([
      INPUT,
      ...BASE,
      `--queue=${url(`:${SECRET}@`)}`,
      `-o${join(scratch(), "out.txt")}`,
      "--",
      ...COMMAND,
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+\/0: TLS does not accept its certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\); .*\$NODE_EXTRA_CA_CERTS/,
    );
    assert.ok(!run.stderr.includes(SECRET), run.stderr);
    const worker = spawnSync(process.execPath, [MAIN, "worker", url(`:${SECRET}@`), "--", ...COMMAND], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(worker.status, 2, worker.stderr);
    assert.match(worker.stderr, /TLS does not accept its certificate/);
    assert.ok(!worker.stderr.includes(SECRET), worker.stderr);
  });

  test("the other scheme than the port speaks: exit 2 naming the right one, not a wait", async (t) => {
    if (noTls) return t.skip(`redis-server did not start with TLS (built without it?): ${noTls}`);
    // A plain client meets the TLS port (its connection is reset at every try): the reducer.
    const wrongPlain = url(`:${SECRET}@`).replace("rediss://", "redis://");
    const run = await runWhittle([
      INPUT,
      ...BASE,
      `--queue=${wrongPlain}`,
      `-o${join(scratch(), "out.txt")}`,
      "--",
      ...COMMAND,
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /speaks TLS: use rediss:\/\/ instead of redis:\/\//);
    assert.doesNotMatch(run.stderr, /waiting for it/);
    assert.ok(!run.stderr.includes(SECRET), run.stderr);
    // The TLS handshake meets a plain port (it waits until ioredis's 10 s connect timeout): a worker.
    const plain = await startRedis(dir);
    try {
      const worker = spawnSync(
        process.execPath,
        [MAIN, "worker", plain.url.replace("redis://", "rediss://"), "--", ...COMMAND],
        { encoding: "utf8", timeout: 60_000 },
      );
      assert.equal(worker.status, 2, worker.stderr);
      assert.match(worker.stderr, /speaks plain Redis, without TLS: use redis:\/\/ instead of rediss:\/\//);
      assert.doesNotMatch(worker.stderr, /waiting for it/);
    } finally {
      await plain.stop();
    }
  });
});
