/** IdleWork: work on the best input so far, only in a `-j` slot no test wants. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { IdleWork } from "../../src/reduce/idle-work.js";
import { Slots } from "../../src/slots.js";

const POLL = 5;
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (content: Uint8Array): string => new TextDecoder().decode(content);

/** Work that records what it was given and ends when `finish` is called or its signal aborts. */
function recorder() {
  const started: string[] = [];
  const aborted: string[] = [];
  const done: string[] = [];
  let finish: () => void = () => undefined;
  const work = (content: Uint8Array, signal: AbortSignal): Promise<void> => {
    started.push(text(content));
    return new Promise((resolve, reject) => {
      finish = () => {
        done.push(text(content));
        resolve();
      };
      signal.addEventListener("abort", () => {
        aborted.push(text(content));
        reject(signal.reason as Error);
      });
    });
  };
  return { work, started, aborted, done, finish: () => finish() };
}

async function until(what: string, holds: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !holds(); i++) await sleep(POLL);
  assert.ok(holds(), what);
}

test("the work starts in a slot that stayed idle, holds it until it ends, and gives it back", async () => {
  const slots = new Slots(() => 2);
  const r = recorder();
  const idle = new IdleWork(slots, () => true, r.work, new AbortController().signal, POLL);
  assert.ok(await slots.acquire(undefined));
  idle.offer(bytes("best"));
  await until("the work started", () => r.started.length === 1);
  assert.deepEqual(r.started, ["best"]);
  // Both slots are taken now: a test would wait (and take the work's slot, below).
  assert.equal(slots.idle(), false);
  r.finish();
  await until("the slot is back", () => slots.idle());
  assert.deepEqual(r.done, ["best"]);
  idle.close();
});

test("a test that asks for a slot takes the work's at once; the work waits for an idle slot and runs again", async () => {
  const slots = new Slots(() => 1);
  const r = recorder();
  const idle = new IdleWork(slots, () => true, r.work, new AbortController().signal, POLL);
  idle.offer(bytes("best"));
  await until("the work started", () => r.started.length === 1);
  let gotIt = false;
  const asked = slots.acquire(undefined).then((ok) => (gotIt = ok));
  await asked;
  assert.equal(gotIt, true, "the test's request was answered while the work held the only slot");
  assert.deepEqual(r.aborted, ["best"]);
  // While the test holds the slot the work does not start again.
  await sleep(POLL * 6);
  assert.equal(r.started.length, 1);
  slots.release();
  await until("the work started again", () => r.started.length === 2);
  r.finish();
  await until("it ended", () => r.done.length === 1);
  idle.close();
});

test("a slot freed only for a moment between two tests is not taken", async () => {
  const slots = new Slots(() => 1);
  const r = recorder();
  const idle = new IdleWork(slots, () => true, r.work, new AbortController().signal, POLL);
  idle.offer(bytes("best"));
  // Tests one after another, each taking the slot again at once.
  const stop = Date.now() + POLL * 20;
  while (Date.now() < stop) {
    assert.ok(await slots.acquire(undefined));
    await sleep(POLL * 2);
    slots.release();
  }
  assert.deepEqual(r.started, []);
  idle.close();
});

test("a newer best aborts the work on the one before; nothing starts without a core to spare or after close", async () => {
  const slots = new Slots(() => 2);
  const r = recorder();
  let spare = false;
  const idle = new IdleWork(slots, () => spare, r.work, new AbortController().signal, POLL);
  idle.offer(bytes("first"));
  await sleep(POLL * 6);
  assert.deepEqual(r.started, [], "no core to spare: the work waits");
  spare = true;
  await until("the work started", () => r.started.length === 1);
  idle.offer(bytes("second"));
  await until("the work on the newer best started", () => r.started.length === 2);
  assert.deepEqual(r.aborted, ["first"]);
  assert.deepEqual(r.started, ["first", "second"]);
  // Closed: the running work goes on (its answer may be wanted); nothing new starts.
  idle.close();
  idle.offer(bytes("third"));
  await sleep(POLL * 6);
  assert.deepEqual(r.started, ["first", "second"]);
  r.finish();
  assert.deepEqual(r.done, ["second"]);
});

test("the run's signal stops the work", async () => {
  const slots = new Slots(() => 2);
  const r = recorder();
  const run = new AbortController();
  const idle = new IdleWork(slots, () => true, r.work, run.signal, POLL);
  idle.offer(bytes("best"));
  await until("the work started", () => r.started.length === 1);
  run.abort();
  assert.deepEqual(r.aborted, ["best"]);
  await until("its slot is back", () => slots.idle());
  idle.close();
});

test("reduce() gives idleWork only best inputs so far, and with one job none", async () => {
  const { reduce } = await import("../../src/reduce/reduce.js");
  const input = bytes("a\nb\nBUG\nc\nd\ne\nf\ng\n");
  for (const jobs of [1, 4]) {
    const bests = new Set<string>([text(input)]);
    const given: string[] = [];
    const result = await reduce(
      input,
      async (candidate) => {
        await sleep(15);
        return text(candidate).includes("BUG");
      },
      {
        jobs,
        atom: "line",
        onEvent: (event) => {
          if (event.type === "improved") bests.add(text(event.content));
        },
        idleWork: async (content) => {
          given.push(text(content));
          await sleep(15);
        },
      },
    );
    assert.equal(text(result.output), "BUG\n");
    if (jobs === 1) assert.deepEqual(given, []);
    for (const content of given) assert.ok(bests.has(content), content);
  }
});
