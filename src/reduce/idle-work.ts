import { setTimeout as sleep } from "node:timers/promises";
import type { Slots } from "../slots.js";

/** Work on an input that runs in a `-j` slot no test wants (the command's re-test of the best so far). */
export type IdleWorkFn = (content: Uint8Array, signal: AbortSignal) => Promise<unknown>;

/** How often a slot is looked at while the work waits for one, in ms. */
const POLL_MS = 50;

/**
 * Runs `work` on the input last offered, in a slot that no test wants: one that was free, with no
 * request waiting and a core to spare, at two looks `POLL_MS` apart (a slot freed between two tests
 * of a search is taken again within milliseconds; the work should not start only to be killed).
 * The work gives its slot up to any test that asks for one (Slots.yielding: its signal aborts, the
 * slot is free at once) and waits for an idle slot again. An input offered later replaces the one
 * before it: the work on that one is aborted. Nothing new starts after `close`; work already
 * running goes on (its answer may still be wanted) until its signal aborts.
 */
export class IdleWork {
  #current: AbortController | undefined;
  #closed = false;

  constructor(
    private readonly slots: Slots,
    private readonly spare: () => boolean,
    private readonly work: IdleWorkFn,
    private readonly signal: AbortSignal,
    private readonly pollMs = POLL_MS,
  ) {}

  /** The newest input to work on; the work on an earlier one stops. */
  offer(content: Uint8Array): void {
    if (this.#closed) return;
    this.#current?.abort();
    const replaced = new AbortController();
    this.#current = replaced;
    this.#runWhenIdle(content, AbortSignal.any([this.signal, replaced.signal])).catch(() => undefined);
  }

  /** No work starts from now on. */
  close(): void {
    this.#closed = true;
  }

  async #runWhenIdle(content: Uint8Array, signal: AbortSignal): Promise<void> {
    let idleBefore = false;
    for (;;) {
      await sleep(this.pollMs, undefined, { signal });
      if (this.#closed) return;
      const idle = this.slots.idle() && this.spare();
      if (!idle || !idleBefore) {
        idleBefore = idle;
        continue;
      }
      if (!this.slots.tryAcquire()) continue;
      let holding = true;
      const release = (): void => {
        if (holding) this.slots.release();
        holding = false;
      };
      const gave = new AbortController();
      const unregister = this.slots.yielding(
        () => Number.POSITIVE_INFINITY,
        () => {
          release();
          gave.abort(new Error("gave its slot to a test"));
        },
      );
      try {
        await this.work(content, AbortSignal.any([signal, gave.signal]));
        return;
      } catch (error) {
        if (!gave.signal.aborted || signal.aborted) throw error;
        idleBefore = false;
      } finally {
        unregister();
        release();
      }
    }
  }
}
