import { splitAtoms, type AtomKind, type AtomMode, atomPasses } from "../atoms/atoms.js";
import type { CacheKey } from "../cache/index.js";
import { fullConfiguration, type Configuration } from "../ddmin/configuration.js";
import { minimize } from "../ddmin/minimize.js";
import { configurationHooks, type Pass } from "./pass.js";

/**
 * ddmin over atoms of the current input: lines or characters. A configuration is a set of atom
 * indices; its candidate is the selected atoms' bytes, joined.
 */
export function ddminAtoms(kind: AtomKind): Pass {
  return {
    name: `ddmin:${kind}`,
    async run({ current, evaluator, options, signal, emit }) {
      const atoms = splitAtoms(current, kind);
      emit({ type: "pass", pass: `ddmin:${kind}`, units: atoms.count, size: current.length });
      const key = (config: Configuration): CacheKey => {
        let bytes: Uint8Array | undefined;
        return { config, content: () => (bytes ??= atoms.join(config)) };
      };
      const hooks = configurationHooks(evaluator, key, { emit, signal });
      try {
        const result = await minimize(fullConfiguration(atoms.count), hooks, options);
        return result.kind === "stopped" ? { kind: "stopped", reason: result.reason } : { kind: "done" };
      } finally {
        evaluator.close();
      }
    },
  };
}

/** The passes of an atom mode: "both" is lines, then characters. */
export function atomPipeline(mode: AtomMode): Pass[] {
  return atomPasses(mode).map(ddminAtoms);
}
