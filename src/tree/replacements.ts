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
    const trimmed = source.trim();
    if (trimmed.startsWith("{")) {
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch (error) {
        throw new RangeError(`not valid JSON: ${(error as Error).message}`);
      }
      const table = new Map<string, string>();
      for (const [kind, text] of Object.entries(value as Record<string, unknown>)) {
        if (typeof text !== "string") throw new RangeError(`the replacement of ${kind} must be a string`);
        table.set(kind, text);
      }
      return new Replacements(table);
    }
    const table = new Map<string, string>();
    source.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "" || line.trimStart().startsWith("#")) return;
      const m = /^\s*([A-Za-z_][\w]*)\s*:\s?(.*)$/.exec(line);
      if (!m) throw new RangeError(`line ${i + 1}: expected "rule: text", got ${JSON.stringify(line)}`);
      table.set(m[1]!, m[2]!.trimEnd());
    });
    return new Replacements(table);
  }
}

export const NO_REPLACEMENTS = new Replacements(new Map());
