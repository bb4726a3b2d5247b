import type { CacheKey } from "../cache/index.js";
import { fullConfiguration, type Configuration } from "../ddmin/configuration.js";
import { minimize } from "../ddmin/minimize.js";
import type { TreeFrontEnd } from "../hdd/phases.js";
import { render, type EditView } from "../tree/render.js";
import type { Pass } from "./pass.js";

const NOTHING = new Uint8Array(0);

/**
 * ddmin over the grammar's tokens of the current input: a configuration is the set of tokens kept;
 * the others are deleted outright (not replaced), with the hidden text before them, and the rest is
 * rendered as the tree renders (a space where two tokens would glue). Finer than any tree level,
 * coarser than characters: the polish after the tree phases.
 */
export function ddminTokens(frontEnd: TreeFrontEnd): Pass {
  const name = "ddmin:token";
  return {
    name,
    async run({ current, evaluator, options, signal, emit }) {
      const { tree, glue } = frontEnd.parse(current);
      const tokens = tree.tokens;
      emit({ type: "pass", pass: name, units: tokens.length, size: current.length });
      const key = (config: Configuration): CacheKey => {
        let bytes: Uint8Array | undefined;
        return {
          config,
          content: () => {
            if (bytes) return bytes;
            const kept = new Set<number>();
            for (const i of config) kept.add(tokens[i]!);
            const view: EditView = {
              isRemoved: (id) => tree.isToken(id) && !kept.has(id),
              hoistOf: () => undefined,
              replacement: () => NOTHING,
            };
            return (bytes = render(tree, view, glue));
          },
        };
      };
      try {
        if (tokens.length === 0) return { kind: "done" };
        const result = await minimize(
          fullConfiguration(tokens.length),
          {
            test: (config, s, label) => evaluator.test(key(config), s, label),
            commit: (config) => evaluator.commit(key(config)),
            onEvent: emit,
            signal,
          },
          options,
        );
        return result.kind === "stopped" ? { kind: "stopped", reason: result.reason } : { kind: "done" };
      } finally {
        evaluator.close();
      }
    },
  };
}
