import type { Tree } from "./tree.js";

const decoder = new TextDecoder();

/** At most `max` characters of `text`, on one line. */
function snippet(text: string, max = 40): string {
  const one = JSON.stringify(text);
  return one.length <= max ? one : `${one.slice(0, max - 2)}…"`;
}

/**
 * The tree as the algorithms see it (after the transforms), one node per line, indented by depth:
 * kind, byte span, the text (tokens) or its start (rules), and marks — `removable` (empty
 * replacement), `→ "…"` (the minimal replacement otherwise), `fixed` (hidden: already minimal),
 * `tail` (a flattened recursion tail). What `whittle tree` prints.
 */
export function describeTree(tree: Tree): string {
  const lines: string[] = [];
  const stack: number[] = [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const text = decoder.decode(tree.text(id));
    const replacement = decoder.decode(tree.replacement(id));
    const marks = [
      tree.isRemovable(id) ? "removable" : `→ ${snippet(replacement)}`,
      ...(tree.isFixed(id) ? ["fixed"] : []),
      ...(tree.isSynthetic(id) ? ["tail"] : []),
    ];
    lines.push(
      `${"  ".repeat(tree.depth(id))}${tree.kind(id)} [${tree.start(id)},${tree.end(id)}) ${snippet(text)} ${marks.join(" ")}`,
    );
    const children = tree.children(id);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return lines.join("\n") + "\n";
}

/** One node of `treeJson()`. */
export interface TreeJsonNode {
  id: number;
  kind: string;
  token: boolean;
  start: number;
  end: number;
  removable: boolean;
  fixed: boolean;
  synthetic: boolean;
  replacement: string;
  /** Tokens only: their text. */
  text?: string;
  children: TreeJsonNode[];
}

/** The tree as data, for tools (`whittle tree --json`). */
export function treeJson(tree: Tree): TreeJsonNode {
  const nodes: TreeJsonNode[] = [];
  for (let id = 0; id < tree.size; id++) {
    nodes.push({
      id,
      kind: tree.kind(id),
      token: tree.isToken(id),
      start: tree.start(id),
      end: tree.end(id),
      removable: tree.isRemovable(id),
      fixed: tree.isFixed(id),
      synthetic: tree.isSynthetic(id),
      replacement: decoder.decode(tree.replacement(id)),
      ...(tree.isToken(id) ? { text: decoder.decode(tree.text(id)) } : {}),
      children: [],
    });
  }
  for (let id = 0; id < tree.size; id++)
    for (const c of tree.children(id)) nodes[id]!.children.push(nodes[c]!);
  return nodes[0]!;
}
