/** Inputs for the tree-sitter front-end's tests: each parses without a syntax error. */
import type { BuiltInLanguage } from "../../src/grammar/tree-sitter/index.js";

export const SAMPLES: Readonly<Record<BuiltInLanguage, readonly string[]>> = {
  json: [
    '{\n  "name": "whittle",\n  "tags": ["a", "b\\n", "\\u00e9"],\n  "n": -1.5e3,\n  "ok": true,\n  "none": null,\n  "nested": {"x": [[], {}, [1, [2, 3]]], "y": false}\n}\n',
    '[1, "héllo wörld ✓", {"ключ": "значение", "emoji": "🙂"}]',
  ],
  javascript: [
    `// a comment
"use strict";
import { a, b as c } from "./m.js";
export default function f(x, y = 2, ...rest) {
  if (x > y) {
    return x;
  } else if (x === y) {
    y += 1;
  } else {
    for (let i = 0; i < 10; i++) { x = x * 2; }
  }
  const o = { p: 1, q: [1, 2, 3], [c]: () => 4, m() { return this.p; } };
  let s = \`t \${o.p} u\`;
  while (x--) { if (!x) break; continue; }
  try { g(o?.p, ...rest); } catch (e) { throw new Error("x"); } finally { s = null; }
  switch (x) { case 1: y = 2; break; default: y = 3; }
  class K extends Object { static n = 1; get v() { return 1; } }
  var z = x ? y : typeof s, w = /ab+c/gi;
  do { x = await h(); } while (false);
  return [a, b, ...rest].map((v) => v + 1);
}
`,
    'const café = "naïve — ✓";\nlet émoji = "🙂"; /* é */ console.log(café, émoji);\n',
  ],
  c: [
    `#include <stdio.h>
#define N 10
/* block comment */
struct point { int x, y; };
typedef unsigned long size;
enum color { RED, GREEN = 2, BLUE };
static int add(int a, int b) { return a + b; }
int main(int argc, char **argv) {
  int i, arr[N] = {1, 2, 3};
  struct point p = { .x = 1, .y = 2 };
  for (i = 0; i < N; i++) {
    if (arr[i] > 2 && argc) { printf("%d\\n", arr[i]); } else continue;
  }
  while (i--) p.x += add(p.y, i);
  switch (argc) { case 1: break; default: return 1; }
  do { i++; } while (i < 3);
  char *s = (char *) argv[0];
  return p.x ? 0 : -1;
}
`,
    'const char *greeting = "grüße, 世界"; // ünïcode\nint f(void) { return sizeof(greeting); }\n',
    // Preprocessor lines (a line marker, a #define) end at their newline, a hidden token.
    '# 134 "stdio.h" 2 3 4\n\n\nextern int count;\n#define N 1\nextern int y;\n',
  ],
};
