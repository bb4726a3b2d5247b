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
  typescript: [
    `import { readFile } from "node:fs/promises";
export interface Point { x: number; y?: number; readonly tag: string }
type Shape = { kind: "circle"; r: number } | { kind: "square"; side: number };
enum Color { Red, Green = 2 }
export abstract class Base<T extends object> implements Iterable<T> {
  private items: T[] = [];
  constructor(public readonly name: string) {}
  abstract area(): number;
  *[Symbol.iterator](): Iterator<T> { yield* this.items; }
}
export async function load(path: string, retries = 3): Promise<Shape[]> {
  const text = await readFile(path, "utf8");
  const data = JSON.parse(text) as Shape[];
  for (const s of data) {
    if (s.kind === "circle" && s.r > 0) { console.log(\`r=\${s.r}\`); } else { retries--; }
  }
  return data.filter((s): s is Shape => s !== null)!;
}
`,
  ],
  tsx: [
    `import React from "react";
type Props = { title: string; items: string[] };
export function List({ title, items }: Props): JSX.Element {
  const [open, setOpen] = React.useState<boolean>(false);
  return (
    <div className="list" onClick={() => setOpen(!open)}>
      <h1>{title}</h1>
      {open && <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>}
    </div>
  );
}
`,
  ],
  cpp: [
    `#include <iostream>
#include <vector>
namespace geo {
template <typename T>
class Box : public Base {
 public:
  explicit Box(T v) : value_(v) {}
  virtual ~Box() = default;
  T get() const noexcept { return value_; }
 private:
  T value_;
};
}  // namespace geo
int main(int argc, char** argv) {
  std::vector<int> v{1, 2, 3};
  auto sum = 0;
  for (auto& x : v) { sum += x; }
  auto f = [&](int a) -> int { return a * sum; };
  const char* raw = R"(a "raw" string)";
  try { throw std::runtime_error("bad"); } catch (const std::exception& e) { std::cerr << e.what() << std::endl; }
  return f(argc) > 10 ? 0 : 1;
}
`,
  ],
  html: [
    `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>A page</title>
  <link rel="stylesheet" href="style.css">
  <style>body { margin: 0; }</style>
  <script>const x = 1 < 2;</script>
</head>
<body>
  <!-- a comment -->
  <h1 class="title">Hello, <em>world</em>!</h1>
  <p>Some text<br>and more &amp; more.</p>
  <ul><li>one</li><li>two</ul>
  <img src="a.png" alt='an image'/>
</body>
</html>
`,
  ],
  css: [
    `@import url("base.css");
:root { --main: #336699; }
body, html { margin: 0; padding: 0 auto; font: 12px/1.5 "Helvetica Neue", sans-serif; }
a:hover > span.icon::before { content: "→"; color: var(--main) !important; }
div .child + p ~ em { width: calc(100% - 2em); }
@media screen and (max-width: 600px) { .nav { display: none; } }
@keyframes spin { from { transform: rotate(0deg); } to { transform: rotate(360deg); } }
`,
  ],
  python: [
    `#!/usr/bin/env python3
"""A module docstring."""
import os
from typing import List, Optional


class Stack:
    """A stack."""

    def __init__(self, items: Optional[List[int]] = None) -> None:
        self.items = items or []

    def push(self, x: int) -> None:
        if x < 0:
            raise ValueError(f"negative: {x!r}")
        elif x == 0:
            pass
        else:
            self.items.append(x)

    @property
    def top(self):
        return self.items[-1] if self.items else None


def main(argv):
    s = Stack()
    for i, arg in enumerate(argv[1:]):
        try:
            s.push(int(arg))
        except ValueError as e:
            print("bad", e, file=os.sys.stderr)
            continue
    while s.items:
        s.items.pop()
    squares = [n * n for n in range(10) if n % 2]
    return {"top": s.top, "squares": squares, 'path': os.getcwd()}


if __name__ == "__main__":
    main(["x", "1", "2"])
`,
  ],
  java: [
    `package com.example;

import java.util.*;

/** A class. */
public class Main<T extends Comparable<T>> implements Runnable {
  private static final int N = 10;
  private final List<T> items = new ArrayList<>();

  @Override
  public void run() {
    for (int i = 0; i < N; i++) {
      if (i % 2 == 0) { System.out.println("even " + i); } else continue;
    }
    try {
      Object o = items.get(0);
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalStateException("empty", e);
    } finally {
      items.clear();
    }
    int x = switch (N) { case 1 -> 2; default -> 3; };
    Runnable r = () -> System.out.println(x);
  }

  public static void main(String[] args) throws Exception {
    new Main<String>().run();
  }
}
`,
  ],
  rust: [
    `use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone)]
pub struct Point { x: i32, y: i32 }

pub enum Shape { Circle(f64), Square { side: f64 } }

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

fn area(s: &Shape) -> f64 {
    match s {
        Shape::Circle(r) => 3.14 * r * r,
        Shape::Square { side } => side * side,
    }
}

fn main() {
    let mut m: HashMap<String, i32> = HashMap::new();
    let raw = r#"a "raw" string"#;
    for (i, w) in raw.split(' ').enumerate() {
        if i > 0 { m.insert(w.to_string(), i as i32); } else { continue; }
    }
    let p = Point { x: 1, y: 2 };
    println!("{} {}", p, area(&Shape::Circle(1.0)));
}
`,
  ],
  go: [
    `package main

import (
	"fmt"
	"os"
)

type Point struct {
	X, Y int
}

func (p *Point) Add(q Point) Point {
	return Point{p.X + q.X, p.Y + q.Y}
}

func main() {
	xs := []int{1, 2, 3}
	m := map[string]int{"a": 1}
	for i, x := range xs {
		if x > 1 {
			fmt.Println(i, x)
		} else {
			continue
		}
	}
	switch len(os.Args) {
	case 1:
		fmt.Println("none")
	default:
		fmt.Printf("%d args\\n", len(os.Args))
	}
	defer func() { _ = recover() }()
	var s = \`raw
string\`
	fmt.Println(m, s)
}
`,
  ],
  yaml: [
    `# a comment
name: whittle
version: 1.0
tags: [a, b, "c d"]
nested:
  list:
    - one
    - two: 2
      three: 3
    - 'quoted'
  map: {x: 1, y: null}
text: |
  a literal
  block
folded: >
  folded
  text
anchors:
  base: &base {k: v}
  copy: *base
`,
  ],
  php: [
    `<!DOCTYPE html>
<p>Hello</p>
<?php
namespace App;

use Foo\\Bar;

interface Shape { public function area(): float; }

final class Circle implements Shape {
    private array $tags = [];
    public function __construct(private float $r = 1.0) {}
    public function area(): float { return M_PI * $this->r ** 2; }
}

function greet(string $name, int ...$rest): string {
    $s = "Hello, {$name}!";
    foreach ($rest as $k => $v) {
        if ($v > 1 && !empty($k)) { $s .= " $v"; } elseif ($v === 0) { continue; } else { break; }
    }
    try {
        throw new \\RuntimeException('bad');
    } catch (\\Exception $e) {
        echo $e->getMessage(), PHP_EOL;
    } finally {
        $s = $s ?? '';
    }
    return match ($name) { 'a' => 'x', default => $s };
}
$c = new Circle(2.0);
echo greet("world", 1, 2), $c->area();
?>
<p>Bye</p>
`,
  ],
  bash: [
    `#!/usr/bin/env bash
set -euo pipefail
# a comment
NAME="\${1:-world}"
count=0
greet() {
  local who=$1
  echo "hello, $who" | tr a-z A-Z >&2
}
for f in *.txt; do
  if [[ -f "$f" && $f != skip* ]]; then
    count=$((count + 1))
  elif [ -d "$f" ]; then
    continue
  fi
done
case "$NAME" in
  a*) greet "$NAME" ;;
  *) echo 'other' ;;
esac
while read -r line; do echo "$line"; done < input.txt
cat <<END
heredoc $NAME
END
greet "$(whoami)" && exit 0
`,
  ],
};
