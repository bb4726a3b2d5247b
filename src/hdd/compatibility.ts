import { sameKind, type Compatibility } from "./search.js";

/**
 * A user's table of kinds that may replace each other in hoisting (`--hoist-compatible FILE`), on
 * top of the paper's default (same kind): `{"expression": ["primaryExpression"]}` lets an expression
 * node be replaced by a descendant primaryExpression. As JSON, or lines `kind: other other …`.
 */
export function compatibilityTable(source: string): Compatibility {
  const table = new Map<string, Set<string>>();
  const add = (kind: string, others: readonly string[]): void => {
    const set = table.get(kind) ?? new Set<string>();
    for (const o of others) set.add(o);
    table.set(kind, set);
  };
  const trimmed = source.trim();
  if (trimmed.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new RangeError(`not valid JSON: ${(error as Error).message}`);
    }
    for (const [kind, others] of Object.entries(value as Record<string, unknown>)) {
      if (!Array.isArray(others) || !others.every((o) => typeof o === "string")) {
        throw new RangeError(`the entry of ${kind} must be a list of kind names`);
      }
      add(kind, others);
    }
  } else {
    source.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "" || line.trimStart().startsWith("#")) return;
      const m = /^\s*([A-Za-z_]\w*)\s*:\s*(.*)$/.exec(line);
      if (!m)
        throw new RangeError(`line ${i + 1}: expected "kind: other other …", got ${JSON.stringify(line)}`);
      add(m[1]!, m[2]!.split(/[\s,]+/).filter(Boolean));
    });
  }
  return (tree, node, descendant) =>
    sameKind(tree, node, descendant) || (table.get(tree.kind(node))?.has(tree.kind(descendant)) ?? false);
}
