import { parseForPass, type TreeFrontEnd } from "../hdd/phases.js";
import { render, type EditView } from "../tree/render.js";
import { reduceList } from "./list.js";
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
    async run(context) {
      const { current, emit } = context;
      const { tree, glue } = parseForPass(frontEnd, current);
      const tokens = tree.tokens;
      emit({ type: "pass", pass: name, units: tokens.length, size: current.length });
      return reduceList(context, tokens.length, (config) => {
        // A token is removed where its index is not in the configuration.
        const view: EditView = {
          isRemoved: (id) => {
            if (!tree.isToken(id)) return false;
            const index = tree.tokenIndex(id);
            return config.nextAbsent(index) === index;
          },
          hoistOf: () => undefined,
          replacement: () => NOTHING,
          nextEdited: (from) => {
            const absent = config.nextAbsent(tree.tokenIndex(from));
            return absent < tokens.length ? tokens[absent]! : Infinity;
          },
        };
        return render(tree, view, glue);
      });
    },
  };
}
