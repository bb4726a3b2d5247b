import type { Tree } from "./tree.js";

const decoder = new TextDecoder();

/** At most `max` characters of `text`, on one line. */
function snippet(text: string, max = 40): string {
  const one = JSON.stringify(text);
  return one.length <= max ? one : `${one.slice(0, max - 2)}…"`;
}

/**
 * Bytes decoded for a snippet: 40 characters take at most 160 bytes, so a longer text is cut there
 * (and still shown cut). Decoding each node's whole text would cost its size per node: the sum of
 * the depths times the input for a deep tree (100,000 nested arrays: 10 GB of decoding).
 */
const SNIPPET_BYTES = 160;

/**
 * Depths up to this are shown by indentation; a deeper node is indented as deep as this and shows
 * its depth as a number, so that a line's length does not grow with the depth (100,000 nested
 * arrays would otherwise print 10 GB of spaces).
 */
export const MAX_INDENT_DEPTH = 64;

/** Lines are handed out in pieces of about this many characters. */
const CHUNK_CHARS = 1 << 16;

/**
 * The tree as the algorithms see it (after the transforms), one node per line, indented by depth:
 * kind, byte span, the text (tokens) or its start (rules), and marks — `removable` (empty
 * replacement), `→ "…"` (the minimal replacement otherwise), `fixed` (hidden: already minimal),
 * `tail` (a flattened recursion tail). What `whittle tree` prints.
 */
export function describeTree(tree: Tree): string {
  return [...describeTreeChunks(tree)].join("");
}

/**
 * describeTree's text in pieces of about 64 KiB, so that a large tree's (34 times the input for
 * JSON) is never one string: V8's strings stop at 512 MiB.
 */
export function* describeTreeChunks(tree: Tree): Generator<string> {
  let chunk = "";
  const stack: number[] = [0];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const bytes = tree.text(id);
    const text = decoder.decode(bytes.subarray(0, SNIPPET_BYTES));
    const replacement = decoder.decode(tree.replacement(id));
    const marks = [
      tree.isRemovable(id) ? "removable" : `→ ${snippet(replacement)}`,
      ...(tree.isFixed(id) ? ["fixed"] : []),
      ...(tree.isSynthetic(id) ? ["tail"] : []),
    ];
    const depth = tree.depth(id);
    const indent =
      depth <= MAX_INDENT_DEPTH ? "  ".repeat(depth) : `${"  ".repeat(MAX_INDENT_DEPTH)}…(depth ${depth}) `;
    chunk += `${indent}${tree.kind(id)} [${tree.start(id)},${tree.end(id)}) ${snippet(text)} ${marks.join(" ")}\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
    const children = tree.children(id);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  if (chunk !== "") yield chunk;
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

/** What `whittle tree --json` says of node `id`, but its children. */
function nodeFields(tree: Tree, id: number): Omit<TreeJsonNode, "children"> {
  return {
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
  };
}

/** The tree as data, for tools (`whittle tree --json`). */
export function treeJson(tree: Tree): TreeJsonNode {
  const nodes: TreeJsonNode[] = [];
  for (let id = 0; id < tree.size; id++) {
    nodes.push({ ...nodeFields(tree, id), children: [] });
  }
  for (let id = 0; id < tree.size; id++)
    for (const c of tree.children(id)) nodes[id]!.children.push(nodes[c]!);
  return nodes[0]!;
}

/**
 * `JSON.stringify(treeJson(tree))` in pieces of about 64 KiB, written without recursion: a tree
 * 100,000 deep overflows JSON.stringify's stack, and a large tree's text is larger than a string can be.
 */
export function* treeJsonChunks(tree: Tree): Generator<string> {
  let chunk = "";
  // Each entry: a node to open, or (−1 − id) the end of a node's children to close.
  const stack: number[] = [0];
  let first = true;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry < 0) {
      chunk += "]}";
      first = false;
    } else {
      const id = entry;
      const fields = nodeFields(tree, id);
      const open = JSON.stringify(fields);
      chunk += `${first ? "" : ","}${open.slice(0, -1)},"children":[`;
      first = true;
      stack.push(-1 - id);
      const children = tree.children(id);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}
