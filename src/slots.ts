/**
 * Slots for tests: at most `limit()` are taken at once (the limit is read whenever a slot may be
 * given, so it may change); the others wait, and a freed slot goes to the waiting request with the
 * lowest priority number, the earliest among equals (without priorities: in the order asked). The
 * evaluator's `-j` slots (speculative searches wait behind the others) and the queue client's jobs
 * in flight.
 */
export class Slots {
  #taken = 0;
  #order = 0;
  readonly #waiting: { priority: () => number; order: number; wake: () => void }[] = [];

  constructor(private readonly limit: () => number) {}

  /**
   * Resolves true with a slot taken, or false if `signal` aborts while it waits (no slot taken).
   * `priority` is read each time a slot frees.
   */
  acquire(signal: AbortSignal | undefined, priority: () => number = () => 0): Promise<boolean> {
    if (this.#waiting.length === 0 && this.#taken < this.limit()) {
      this.#taken++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const entry = {
        priority,
        order: this.#order++,
        wake: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(true);
        },
      };
      const onAbort = (): void => {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) this.#waiting.splice(i, 1);
        resolve(false);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
    });
  }

  /** Gives a slot back, and lets waiting requests in. */
  release(): void {
    this.#taken--;
    this.pump();
  }

  /** Lets waiting requests in while slots are free (after the limit rose). */
  pump(): void {
    while (this.#waiting.length > 0 && this.#taken < this.limit()) {
      let best = 0;
      for (let i = 1; i < this.#waiting.length; i++) {
        const a = this.#waiting[i]!;
        const b = this.#waiting[best]!;
        const pa = a.priority();
        const pb = b.priority();
        if (pa < pb || (pa === pb && a.order < b.order)) best = i;
      }
      const [next] = this.#waiting.splice(best, 1);
      this.#taken++;
      next!.wake();
    }
  }

  /** Lets every waiting request go on at once, without a slot (the run is closing). */
  wakeAll(): void {
    for (const entry of this.#waiting.splice(0)) entry.wake();
  }
}
