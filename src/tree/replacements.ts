import { readNameTable } from "./name-table.js";

/**
 * The user's minimal replacements, by rule or token name (`--replacements FILE`): they override what
 * the front-end derived from the grammar, e.g. when the shortest derivation is not valid for the
 * program under test (a C `expression` → `0` where the grammar's shortest string is an identifier).
 *
 * A node whose derived replacement is empty (an item of `?`, `*` or `+`, or a rule that can derive
 * nothing) keeps it: nothing is smaller, and removing such a node is always allowed.
 */
export class Replacements {
  constructor(private readonly table: ReadonlyMap<string, string>) {}

  get size(): number {
    return this.table.size;
  }

  /** The replacement for a node of `kind` whose derived replacement is `derived`. */
  apply(kind: string, derived: string): string {
    if (derived === "") return "";
    return this.table.get(kind) ?? derived;
  }

  entries(): IterableIterator<[string, string]> {
    return this.table.entries();
  }

  /**
   * Reads a replacements file: a JSON object `{"rule": "text", …}`, or lines `rule: text` (Picireny's
   * style; the text runs to the end of the line, `#` starts a comment line, blank lines are skipped).
   * Throws a RangeError naming the line that is neither.
   */
  static parse(source: string): Replacements {
    return new Replacements(
      readNameTable(
        source,
        (kind, text) => {
          if (typeof text !== "string") throw new RangeError(`the replacement of ${kind} must be a string`);
          return text;
        },
        (_kind, rest) => rest.trimEnd(),
        "rule: text",
      ),
    );
  }
}

export const NO_REPLACEMENTS = new Replacements(new Map());
