/** EarlyRetest: the final re-test, made in a slot no test wanted; only its answer for the result counts. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { EarlyRetest, type RetestOracle } from "../../src/cli/early-retest.js";
import { Judge } from "../../src/cli/verdict.js";
import type { CommandRun } from "../../src/oracle/command.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** An oracle whose runs end when told (`answer`), or when their signal aborts (a killed test). */
function oracle() {
  const pending: { content: string; end: (interesting: boolean) => void }[] = [];
  let closed = false;
  const o: RetestOracle = {
    run: (content, signal) =>
      new Promise<CommandRun>((resolve) => {
        const end = (interesting: boolean, cancelled = false): void =>
          resolve({
            outcome: interesting ? "interesting" : "not-interesting",
            exitCode: interesting ? 0 : 1,
            signal: null,
            outputTail: "",
            durationMs: 1,
            activeMs: 1,
            cancelled,
          });
        pending.push({ content: new TextDecoder().decode(content), end });
        signal.addEventListener("abort", () => end(false, true));
      }),
    close: () => {
      closed = true;
      return Promise.resolve();
    },
  };
  return { o, pending, closed: () => closed };
}

test("the re-test of the result answers for it; another input's does not", async () => {
  const { o, pending } = oracle();
  const early = new EarlyRetest(() => o, new Judge());
  const done = early.run(bytes("best"), new AbortController().signal);
  assert.equal(await early.answerFor(bytes("other")), undefined);
  pending[0]!.end(true);
  assert.equal(await done, true);
  assert.equal(await early.answerFor(bytes("best")), true);
  await early.close();
});

test("the answer waits for a re-test still running; not interesting is an answer too", async () => {
  const { o, pending } = oracle();
  const early = new EarlyRetest(() => o, new Judge());
  void early.run(bytes("best"), new AbortController().signal).catch(() => undefined);
  const answer = early.answerFor(bytes("best"));
  pending[0]!.end(false);
  assert.equal(await answer, false);
  await early.close();
});

test("a re-test cut short (a test took its slot, a newer best came) is no answer, and rejects", async () => {
  const { o } = oracle();
  const judge = new Judge();
  const early = new EarlyRetest(() => o, judge);
  const gave = new AbortController();
  const done = early.run(bytes("best"), gave.signal);
  gave.abort(new Error("gave its slot to a test"));
  await assert.rejects(done, /gave its slot/);
  assert.equal(await early.answerFor(bytes("best")), undefined);
  // Not one of --repeat's runs either.
  assert.deepEqual(judge.counters, { disagreements: 0, extraRuns: 0 });
  await early.close();
});

test("close stops a re-test still running and closes the oracle; none opened, none closed", async () => {
  const { o, closed } = oracle();
  const early = new EarlyRetest(() => o, new Judge());
  const done = early.run(bytes("best"), new AbortController().signal);
  await early.close();
  await assert.rejects(done);
  assert.equal(await early.answerFor(bytes("best")), undefined);
  assert.equal(closed(), true);
  let opened = false;
  const idle = new EarlyRetest(() => {
    opened = true;
    return o;
  }, new Judge());
  await idle.close();
  assert.equal(opened, false);
});
