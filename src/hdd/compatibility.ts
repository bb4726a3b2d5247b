import { readNameTable } from "../tree/name-table.js";
import { sameKind, type Compatibility } from "./search.js";

/**
 * A user's table of kinds that may replace each other in hoisting (`--hoist-compatible FILE`), on
 * top of the paper's default (same kind): `{"expression": ["primaryExpression"]}` lets an expression
 * node be replaced by a descendant primaryExpression. As JSON, or lines `kind: other other …`.
 */
export function compatibilityTable(source: string): Compatibility {
  const table = readNameTable(
    source,
    (kind, others) => {
      if (!Array.isArray(others) || !others.every((o) => typeof o === "string")) {
        throw new RangeError(`the entry of ${kind} must be a list of kind names`);
      }
      return new Set(others);
    },
    (_kind, rest) => new Set(rest.split(/[\s,]+/).filter(Boolean)),
    "kind: other other …",
  );
  return withKinds(table, sameKind);
}

/**
 * `within`, and besides a node and a descendant whose kinds `table` pairs (kind → the kinds that may
 * replace it): a user's table, or a grammar's supertypes (TreeSitterFrontEnd.supertypeCompatibility).
 */
export function withKinds(
  table: ReadonlyMap<string, ReadonlySet<string>>,
  within: Compatibility,
): Compatibility {
  return (tree, node, descendant) =>
    within(tree, node, descendant) || (table.get(tree.kind(node))?.has(tree.kind(descendant)) ?? false);
}
