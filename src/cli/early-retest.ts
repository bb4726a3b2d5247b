import { sameBytes } from "../bytes.js";
import type { CommandRun } from "../oracle/command.js";
import type { Judge } from "./verdict.js";

/** What runs the re-tests: the oracle of the checks (run.ts, checkOracle). */
export interface RetestOracle {
  run(content: Uint8Array, signal: AbortSignal): Promise<CommandRun>;
  close(): Promise<void>;
}

/**
 * The final re-test, made early. With `-j` > 1 the reduction re-tests each best input so far in a
 * slot no test wants (reduce's `idleWork`, IdleWork), as the final re-test would (Judge.retest, with
 * --repeat's runs). When the reduction ends on an input whose re-test was interesting, that is its
 * final re-test, and the run does not wait for one more test after the reduction. Only an
 * interesting answer is taken: a re-test that was not interesting, did not end or was not made
 * leaves the final re-test to be made as before, alone (checkFinal).
 */
export class EarlyRetest {
  #oracle: RetestOracle | undefined;
  #last: { content: Uint8Array; answer: Promise<boolean | undefined> } | undefined;
  readonly #stop = new AbortController();

  constructor(
    private readonly open: () => RetestOracle,
    private readonly judge: Judge,
  ) {}

  /** reduce's `idleWork`: re-tests `content`; rejects when `signal` aborts it. */
  readonly run = (content: Uint8Array, signal: AbortSignal): Promise<boolean> => {
    this.#oracle ??= this.open();
    const oracle = this.#oracle;
    const stop = AbortSignal.any([signal, this.#stop.signal]);
    const answer = this.judge.retest(async () => {
      const run = await oracle.run(content, stop);
      // A run cut short is no answer (and not one of --repeat's runs).
      stop.throwIfAborted();
      return run;
    });
    this.#last = {
      content,
      answer: answer.then(
        (interesting) => interesting,
        () => undefined,
      ),
    };
    return answer;
  };

  /**
   * Whether the early re-test found `result` interesting: true or false once a re-test of these
   * bytes has ended (waiting for one still running), undefined when there was none or it was stopped.
   */
  async answerFor(result: Uint8Array): Promise<boolean | undefined> {
    const last = this.#last;
    if (last === undefined || !sameBytes(last.content, result)) return undefined;
    return last.answer;
  }

  /** Stops a re-test still running and closes the oracle, once its processes are gone. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#last?.answer;
    await this.#oracle?.close();
  }
}
