import { parseForPass, type TreeFrontEnd } from "../hdd/phases.js";
import { render, type EditView } from "../tree/render.js";
import { concat } from "../tree/tree.js";
import { skipBlanks, tokenLexemes } from "./lexemes.js";
import { reduceList } from "./list.js";
import type { Pass } from "./pass.js";

const NOTHING = new Uint8Array(0);

/**
 * ddmin over the grammar's tokens of the current input: a configuration is the set of tokens kept;
 * the others are deleted outright (not replaced), with the hidden text before them, and the rest is
 * rendered as the tree renders (a space where two tokens would glue). Finer than any tree level,
 * coarser than characters: the polish after the tree phases. A token that holds several lexemes
 * the grammar does not fix (a macro's body, a string's words: see tokenLexemes) is one unit per
 * lexeme instead, so that what the test needs of it can be found at this pass's cost per unit.
 * The result is 1-minimal over these units.
 */
export function ddminTokens(frontEnd: TreeFrontEnd): Pass {
  const name = "ddmin:token";
  return {
    name,
    async run(context) {
      const { current, emit } = context;
      const { tree, glue } = parseForPass(frontEnd, current);
      const tokens = tree.tokens;
      // Units in input order: firstUnit[i] is token i's first; a split token has one per lexeme,
      // whose bytes are lexemes[2u], lexemes[2u + 1] (−1 for a whole token).
      const firstUnit = new Int32Array(tokens.length + 1);
      const lexemes: number[] = [];
      const unitToken: number[] = [];
      for (let i = 0; i < tokens.length; i++) {
        firstUnit[i] = unitToken.length;
        const pairs = tokenLexemes(frontEnd, tree, tokens[i]!);
        if (pairs.length === 0) {
          lexemes.push(-1, -1);
          unitToken.push(i);
        } else
          for (let p = 0; p < pairs.length; p += 2) {
            lexemes.push(pairs[p]!, pairs[p + 1]!);
            unitToken.push(i);
          }
      }
      const units = unitToken.length;
      firstUnit[tokens.length] = units;
      emit({ type: "pass", pass: name, units, size: current.length });
      return reduceList(context, units, (config) => {
        /** Whether one of token i's units is left out. */
        const edited = (i: number): boolean => config.nextAbsent(firstUnit[i]!) < firstUnit[i + 1]!;
        // A token is removed where one of its units is absent; a split token that keeps some of
        // its lexemes is replaced by them.
        const view: EditView = {
          isRemoved: (id) => tree.isToken(id) && edited(tree.tokenIndex(id)),
          hoistOf: () => undefined,
          replacement: (id) => {
            const i = tree.tokenIndex(id);
            const [first, after] = [firstUnit[i]!, firstUnit[i + 1]!];
            if (lexemes[2 * first]! < 0) return NOTHING;
            const input = tree.input;
            // What stands before the first lexeme (an opening quote) and after the last stays; the
            // first lexeme kept loses the whitespace before it.
            const parts: Uint8Array[] = [input.subarray(tree.start(id), lexemes[2 * first])];
            for (let u = first; u < after; u++) {
              if (config.nextAbsent(u) === u) continue;
              const start = lexemes[2 * u]!;
              const end = lexemes[2 * u + 1]!;
              parts.push(input.subarray(parts.length === 1 ? skipBlanks(input, start, end) : start, end));
            }
            if (parts.length === 1) return NOTHING;
            parts.push(input.subarray(lexemes[2 * after - 1], tree.end(id)));
            return concat(parts);
          },
          nextEdited: (from) => {
            const absent = config.nextAbsent(firstUnit[tree.tokenIndex(from)]!);
            return absent < units ? tokens[unitToken[absent]!]! : Infinity;
          },
        };
        return render(tree, view, glue);
      });
    },
  };
}
