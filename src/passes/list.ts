import type { CacheKey } from "../cache/index.js";
import { fullConfiguration, type Configuration } from "../ddmin/configuration.js";
import { minimize } from "../ddmin/minimize.js";
import { configurationHooks, type PassContext, type PassOutcome } from "./pass.js";

/**
 * Reduces a flat list of `units` of the current input with the configured algorithm: a
 * configuration is the set of units kept, `bytesOf` renders it (once per configuration, when the
 * cache or the oracle first needs the bytes). The loop of the token and hidden-text passes.
 */
export async function reduceList(
  context: PassContext,
  units: number,
  bytesOf: (config: Configuration) => Uint8Array,
): Promise<PassOutcome> {
  const { evaluator, options, signal, emit } = context;
  const key = (config: Configuration): CacheKey => {
    let bytes: Uint8Array | undefined;
    return { config, content: () => (bytes ??= bytesOf(config)) };
  };
  try {
    if (units === 0) return { kind: "done" };
    const result = await minimize(
      fullConfiguration(units),
      configurationHooks(evaluator, key, { emit, signal }),
      options,
    );
    return result.kind === "stopped" ? { kind: "stopped", reason: result.reason } : { kind: "done" };
  } finally {
    evaluator.close();
  }
}
