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
  readonly #yielding = new Set<{ priority: () => number; give: () => void }>();

  constructor(private readonly limit: () => number) {}

  /**
   * Resolves true with a slot taken, or false if `signal` aborts while it waits (no slot taken).
   * `priority` is read each time a slot frees.
   */
  acquire(signal: AbortSignal | undefined, priority: () => number = () => 0): Promise<boolean> {
    if (this.tryAcquire()) return Promise.resolve(true);
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
      this.#yieldTo(priority());
    });
  }

  /**
   * Says that a slot taken is held by work that gives it up to a request of a lower priority number:
   * while it is registered, such a request that has to wait calls `give`, which must release the
   * slot (at once or soon). Returns the function that takes the registration back.
   */
  yielding(priority: () => number, give: () => void): () => void {
    const holder = { priority, give };
    this.#yielding.add(holder);
    return () => this.#yielding.delete(holder);
  }

  /** A request of `priority` waits: the holder of the highest priority number above it gives way. */
  #yieldTo(priority: number): void {
    let chosen: { priority: () => number; give: () => void } | undefined;
    let highest = priority;
    for (const holder of this.#yielding) {
      // The newest among equals: its work is the least advanced.
      const p = holder.priority();
      if (p > highest || (p === highest && chosen !== undefined)) {
        chosen = holder;
        highest = p;
      }
    }
    if (chosen === undefined) return;
    this.#yielding.delete(chosen);
    chosen.give();
  }

  /** Whether a slot is free and no request waits for one. */
  idle(): boolean {
    return this.#waiting.length === 0 && this.#taken < this.limit();
  }

  /** Takes a free slot if there is one and no request waits (true), without waiting. */
  tryAcquire(): boolean {
    if (!this.idle()) return false;
    this.#taken++;
    return true;
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
