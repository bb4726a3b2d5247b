/**
 * A small hand-written front-end for tests of the tree model: JSON parsed into RawNode trees the way
 * an ANTLR grammar `json: value; value: object | array | STRING | NUMBER | 'true' | 'false' | 'null';
 * object: '{' (pair (',' pair)*)? '}'; pair: STRING ':' value; array: '[' (value (',' value)*)? ']'`
 * would give them: items of `?` and `*` have an empty replacement, rules their shortest derivation.
 */
import type { RawNode } from "../../src/tree/raw.js";

const REPLACEMENT: Record<string, string> = {
  json: "0",
  value: "0",
  object: "{}",
  array: "[]",
  pair: '"":0',
};

export function parseToyJson(text: string): RawNode {
  const bytes = Buffer.from(text);
  // Byte offsets: the tests use ASCII, and this keeps the helper honest for anything else too.
  const tokens: { kind: string; start: number; end: number; text: string }[] = [];
  const re = /\s+|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(true|false|null)|([{}[\],:])/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < text.length && (m = re.exec(text)) !== null) {
    at = re.lastIndex;
    if (/^\s/.test(m[0])) continue;
    const start = Buffer.byteLength(text.slice(0, m.index));
    const kind = m[1] ? "STRING" : m[2] ? "NUMBER" : m[3] ? m[3] : m[4]!;
    tokens.push({ kind, start, end: start + Buffer.byteLength(m[0]), text: m[0] });
  }
  if (at !== text.length) throw new Error(`cannot lex at ${at}`);
  void bytes;
  let i = 0;
  const token = (replacement: string): RawNode => {
    const t = tokens[i++]!;
    return {
      kind: t.kind,
      token: true,
      start: t.start,
      end: t.end,
      removable: replacement === "",
      replacement,
      children: [],
    };
  };
  const rule = (kind: string, children: RawNode[], optional = false): RawNode => ({
    kind,
    token: false,
    start: children[0]?.start ?? 0,
    end: children[children.length - 1]?.end ?? 0,
    removable: optional,
    replacement: optional ? "" : REPLACEMENT[kind]!,
    children,
  });
  const value = (optional: boolean): RawNode => {
    const t = tokens[i]!;
    if (t.kind === "{") {
      const kids = [token("{")];
      while (tokens[i]!.kind !== "}") {
        if (tokens[i]!.kind === ",") kids.push(token(""));
        kids.push(rule("pair", [token('""'), token(":"), value(false)], true));
      }
      kids.push(token("}"));
      return rule("value", [rule("object", kids)], optional);
    }
    if (t.kind === "[") {
      const kids = [token("[")];
      while (tokens[i]!.kind !== "]") {
        if (tokens[i]!.kind === ",") kids.push(token(""));
        kids.push(value(true));
      }
      kids.push(token("]"));
      return rule("value", [rule("array", kids)], optional);
    }
    return rule("value", [token(t.kind === "STRING" ? '""' : t.kind === "NUMBER" ? "0" : t.text)], optional);
  };
  const root = rule("json", [value(false)]);
  if (i !== tokens.length) throw new Error("trailing tokens");
  return root;
}

/** A list grammar with left recursion: `list: list ',' ID | ID`, over "a, b, c". */
export function parseLeftList(text: string): RawNode {
  const ids = [...text.matchAll(/\w+/g)];
  const commas = [...text.matchAll(/,/g)];
  const tok = (kind: string, m: RegExpMatchArray, replacement: string): RawNode => ({
    kind,
    token: true,
    start: m.index!,
    end: m.index! + m[0].length,
    removable: false,
    replacement,
    children: [],
  });
  let node: RawNode = {
    kind: "list",
    token: false,
    start: 0,
    end: 0,
    removable: false,
    replacement: "x",
    children: [tok("ID", ids[0]!, "x")],
  };
  for (let k = 1; k < ids.length; k++) {
    const children = [node, tok(",", commas[k - 1]!, ","), tok("ID", ids[k]!, "x")];
    node = {
      kind: "list",
      token: false,
      start: 0,
      end: ids[k]!.index + ids[k]![0].length,
      removable: false,
      replacement: "x",
      children,
    };
  }
  return node;
}
