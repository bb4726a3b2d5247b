import type { Atoms } from "../atoms/atoms.js";
import type { CacheKey, OutcomeCache } from "../cache/index.js";
import type { Configuration } from "../ddmin/configuration.js";
import type { DdminHooks, TestLabel } from "../ddmin/ddmin.js";
import { isInteresting, toOutcome, type Outcome } from "../outcome.js";
import type { EventListener } from "./events.js";

/** The user's test, in-process: a function of the candidate's bytes. `true` means interesting. */
export type Oracle = (
  candidate: Uint8Array,
  signal: AbortSignal,
) => Promise<Outcome | boolean> | Outcome | boolean;

/**
 * One atom pass of a reduction: the single path every candidate takes — serialize, consult the
 * cache, run the oracle, record, emit — and the keeper of the best candidate so far. ddmin only
 * proposes configurations; this decides nothing about which one to keep.
 */
export class AtomProblem implements DdminHooks {
  constructor(
    private readonly atoms: Atoms,
    private readonly oracle: Oracle,
    private readonly cache: OutcomeCache,
    private readonly emit: EventListener,
    private readonly nextId: () => number,
    readonly signal?: AbortSignal,
  ) {}

  readonly onEvent = (event: Parameters<EventListener>[0]): void => this.emit(event);

  private key(config: Configuration): CacheKey {
    let bytes: Uint8Array | undefined;
    return { config, content: () => (bytes ??= this.atoms.join(config)) };
  }

  async test(config: Configuration, signal: AbortSignal, label: TestLabel): Promise<boolean> {
    const key = this.key(config);
    const cached = this.cache.lookup(key);
    if (cached !== undefined) {
      this.emit({ type: "cache-hit", label, size: key.content().length, outcome: cached });
      return isInteresting(cached);
    }
    const content = key.content();
    const id = this.nextId();
    this.emit({ type: "test-start", id, label, size: content.length });
    let outcome: Outcome;
    try {
      outcome = toOutcome(await this.oracle(content, signal));
    } catch (error) {
      if (signal.aborted)
        this.emit({ type: "test-end", id, label, size: content.length, outcome: "cancelled" });
      throw error;
    }
    if (signal.aborted) {
      // The answer came in after the round no longer needed it: report it as cancelled, keep it out.
      this.emit({ type: "test-end", id, label, size: content.length, outcome: "cancelled" });
      return false;
    }
    this.cache.add(key, outcome);
    this.emit({ type: "test-end", id, label, size: content.length, outcome });
    return isInteresting(outcome);
  }

  commit(config: Configuration): void {
    const key = this.key(config);
    this.cache.reduced(key);
    const content = key.content();
    this.emit({ type: "improved", size: content.length, content });
  }
}
