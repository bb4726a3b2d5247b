/**
 * `--phase rename --phase literal` through the real command, with real oracles, for every built-in
 * language whose tool runs here (skipped, with the reason, where it does not): the result must still
 * be accepted by the compiler or interpreter (or do what the original did), be smaller, and have
 * lost the long names and literals that the oracle does not need while keeping those it does.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { FIXTURES, jsonObjArr87Case, runWhittle, scratch } from "../helpers/cli.js";
import {
  javacServer,
  needs,
  needsPython,
  oneError,
  PYTHON,
  pythonCheck,
  RUSTC,
  runJavaScript,
  serve,
  tscOracle,
  type Case,
} from "../helpers/real-oracles.js";

interface PassCase {
  language: string;
  file: string;
  missing: () => string | undefined;
  input: string;
  /** The body of the oracle's bash script ($1: the candidate), as in real-oracles.ts. */
  oracle: Case["oracle"];
  /** Texts of the input the result must have lost (renamed names, shrunk literals). */
  gone: string[];
  /** Texts the result must keep (what the oracle needs as it is). */
  kept: string[];
}

const CASES: PassCase[] = [
  {
    language: "c",
    file: "account.c",
    missing: needs("gcc"),
    input: `#include <stdio.h>
static const char *motto = "always count twice";
static int version = 42;
struct account { int balance; int overdraft; };
static int available(const struct account *acct) { return acct->balance + acct->overdraft; }
int main(void) {
  struct account current = { 1200, 300 };
  printf("%d\\n", available(&current));
  return 0;
}
`,
    // Compiled and run: it must print what the original prints.
    oracle: () => `gcc -o "$1.bin" "$1" 2>/dev/null && [ "$("$1.bin")" = 1500 ]`,
    gone: ["motto", "always count twice", "42", "overdraft", "available", "current"],
    kept: ["printf", "main", "1200", "300"],
  },
  {
    language: "cpp",
    file: "basket.cpp",
    missing: needs("g++"),
    input: `namespace shop {
class Basket {
public:
  int count() const { return items_; }
  void add(int quantity) { items_ += quantity; }
private:
  int items_ = 0;
};
}
int main() { shop::Basket basket; basket.add(3); return basket.count() == 3 ? 0 : 1; }
`,
    oracle: () => `g++ -o "$1.bin" "$1" 2>/dev/null && "$1.bin"`,
    gone: ["Basket", "quantity", "items_", "shop", "3"],
    // Every 3 to 0 and 1 to 0 together is as good: count() is 0 == 0.
    kept: ["main"],
  },
  {
    language: "rust",
    file: "meter.rs",
    missing: needs("rustc"),
    input: `pub struct Meter { pub readings: Vec<u32> }
impl Meter {
    pub fn advance(&mut self, amount: u32) -> u32 { self.readings.push(amount + 10); amount }
    pub fn count(&self) -> u32 { let used: u32 = self.readings.len(); used }
}
`,
    oracle: () =>
      oneError(
        `'${RUSTC}' --edition 2021 --crate-type lib --emit=metadata --error-format=short -o "$1.rmeta" "$1"`,
        "^[^ ]*:[0-9]+:[0-9]+: error",
        "error[E0308]: mismatched types: expected `u32`, found `usize`",
      ),
    gone: ["Meter", "readings", "advance", "amount", "10"],
    kept: ["push(", "len()", "u32", "Vec"],
  },
  {
    language: "go",
    file: "main.go",
    missing: needs("go"),
    input: `package main

import "fmt"

func average(values []int) int {
	total := 0
	for _, value := range values {
		total += value
	}
	return total / len(values)
}

func main() { fmt.Println(average([]int{3, 4, 5})) }
`,
    oracle: () => `go vet "$1" >/dev/null 2>&1`,
    gone: ["average", "total", "value"],
    kept: ["fmt", "Println", "main"],
  },
  {
    language: "java",
    file: "Ledger.java",
    missing: needs("java", "javac"),
    input: `class Ledger {
  private int balance = 100;
  void deposit(int amount) { balance += amount; }
  int current() { return label(); }
  String label() { return "ledger of the month"; }
}
`,
    oracle: async (dir, cleanup) =>
      oneError(
        await javacServer(dir, cleanup),
        ": error: ",
        "error: incompatible types: String cannot be converted to int",
      ),
    gone: ["Ledger", "balance", "deposit", "amount", "ledger of the month", "100"],
    kept: ["String"],
  },
  {
    language: "python",
    file: "average.py",
    missing: needsPython(),
    input: `def average(values):
    total = sum(values)
    return total / len(values)


readings = [3, 4, 5]
print("mean", average(readings))
`,
    oracle: () => `[ "$(timeout 5 '${PYTHON}' -S "$1" 2>/dev/null)" = "mean 4.0" ]`,
    gone: ["average", "values", "total", "readings"],
    kept: ["sum(", "len(", "print(", '"mean"'],
  },
  {
    language: "javascript",
    file: "prices.js",
    missing: () => undefined,
    input: `function lookup(table, fruit) {
  return table[fruit].price;
}
const prices = { apple: { price: 3 }, cherry: { price: 12 } };
lookup(prices, "pear");
`,
    oracle: async (_dir, cleanup) =>
      `[ "$(${await serve(runJavaScript, cleanup)})" = "TypeError: Cannot read properties of undefined (reading 'price')" ]`,
    gone: ["lookup", "table", "fruit", "prices", "cherry", '"pear"', "12"],
    kept: ["price"],
  },
  {
    language: "typescript",
    file: "order.ts",
    missing: () => undefined,
    input: `interface Order { quantity: number; label: string }
function describe(order: Order): number {
  const amount: number = order.label;
  return amount + order.quantity * 100;
}
`,
    oracle: tscOracle(false),
    gone: ["Order", "quantity", "describe", "amount", "100"],
    kept: ["number", "string"],
  },
  {
    language: "tsx",
    file: "badge.tsx",
    missing: () => undefined,
    input: `interface BadgeProps { caption: string; width: number }
function Badge(props: BadgeProps) {
  const size: number = props.caption;
  return <div title="badge">{size + props.width}</div>;
}
`,
    oracle: tscOracle(true),
    gone: ["BadgeProps", "caption", "Badge", '"badge"'],
    kept: ["number", "string"],
  },
  {
    language: "bash",
    file: "count.sh",
    missing: needs("bash"),
    input: `counter=0
for element in one two three; do
  counter=$((counter + 1))
done
echo "$counter items"
`,
    oracle: () => `bash -n "$1" 2>/dev/null && [ "$(bash "$1" 2>/dev/null)" = "3 items" ]`,
    gone: ["counter", "element"],
    kept: ["echo", "items", "one two three"],
  },
  {
    language: "php",
    file: "cart.php",
    missing: needs("php"),
    input: `<?php
function subtotal(array $quantities): int { return array_sum($quantities) * 25; }
echo subtotal([1, 2, 3]), "\\n";
`,
    oracle: () => `php -l "$1" >/dev/null 2>&1`,
    gone: ["subtotal", "quantities", "25"],
    kept: ["array_sum", "echo"],
  },
  {
    language: "json",
    file: "config.json",
    missing: needsPython(),
    input: `{"service": "checkout", "port": 8080, "ratio": 0.75, "tags": ["blue", "green"]}
`,
    oracle: pythonCheck(`import json


def check(path):
    data = json.load(open(path))
    return isinstance(data, dict) and "port" in data
`),
    gone: ["checkout", "8080", "0.75", "blue", "green"],
    kept: ['"port"'],
  },
  {
    language: "yaml",
    file: "deploy.yaml",
    missing: needsPython("yaml"),
    input: `name: "checkout service"
replicas: 12
ratio: 0.75
owner: 'platform team'
`,
    oracle: pythonCheck(`import yaml


def check(path):
    data = yaml.safe_load(open(path))
    return isinstance(data, dict) and set(data) == {"name", "replicas", "ratio", "owner"}
`),
    gone: ["checkout service", "12", "0.75", "platform team"],
    kept: ["replicas:", "owner:"],
  },
  {
    language: "html",
    file: "page.html",
    missing: needsPython(),
    input: `<!DOCTYPE html>
<html><head><title>Shop</title></head>
<body><a href="https://example.org/catalogue" class="primary-link">Catalogue</a></body></html>
`,
    oracle: pythonCheck(`from html.parser import HTMLParser


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, [name for name, _ in attrs]))


def check(path):
    parser = Tags()
    parser.feed(open(path).read())
    return ("a", ["href", "class"]) in parser.tags
`),
    gone: ["example.org", "primary-link"],
    kept: ["<a href=", "class="],
  },
  {
    language: "css",
    file: "card.css",
    missing: () => undefined,
    input: `.product-card { width: 240px; content: "featured"; }
#checkout-button { margin: 1.5em; }
`,
    oracle: async (_dir, cleanup) => `[ "$(${await serve(checkCss, cleanup)})" = ok ]`,
    gone: ["product-card", "checkout-button", "240", "1.5", "featured"],
    kept: ["width:", "margin:", "px", "em"],
  },
];

/**
 * Prettier's CSS parser (postcss) takes the file, and a rule in it declares a width: "ok"; else
 * "syntax error" or "no width".
 */
async function checkCss(path: string): Promise<string> {
  const { format } = await import("prettier");
  try {
    const out = await format(readFileSync(path, "utf8"), { parser: "css" });
    return /^\s+width: /m.test(out) ? "ok" : "no width";
  } catch {
    return "syntax error";
  }
}

/** Runs the oracle on `path` (without blocking: the tool it asks may be served by this process). */
function interesting(oracle: string, path: string): Promise<boolean> {
  return new Promise((done, fail) => {
    const child = spawn(oracle, [path], { cwd: resolve(path, ".."), stdio: "ignore" });
    child.on("error", fail);
    child.on("close", (code) => done(code === 0));
  });
}

for (const c of CASES) {
  const missing = c.missing();
  test(
    `${c.language}: --phase rename --phase literal keep ${c.file} accepted and make it smaller`,
    { skip: missing !== undefined ? `${c.language}: ${missing}` : false },
    async (t) => {
      const stops: (() => unknown)[] = [];
      try {
        const dir = scratch();
        const input = join(dir, c.file);
        writeFileSync(input, c.input);
        const oracle = join(dir, "is-interesting.sh");
        writeFileSync(
          oracle,
          `#!/usr/bin/env bash\nexport LC_ALL=C\n${await c.oracle(dir, (s) => stops.push(s))}\n`,
        );
        chmodSync(oracle, 0o755);
        assert.ok(await interesting(oracle, input), "the original input is interesting");
        const out = join(dir, `out-${c.file}`);
        const stats = join(dir, "stats.json");
        const run = await runWhittle(
          [
            input,
            "-q",
            "--phase",
            "rename",
            "--phase",
            "literal",
            "-o",
            out,
            "--stats",
            stats,
            "--test",
            oracle,
          ],
          { cwd: dir, env: { XDG_CACHE_HOME: join(dir, "cache") } },
        );
        assert.equal(run.code, 0, run.stderr);
        const result = readFileSync(out, "utf8");
        const summary = JSON.parse(readFileSync(stats, "utf8")) as { tests: number; pipeline: string[] };
        t.diagnostic(`${c.language}: ${c.input.length} → ${result.length} bytes, ${summary.tests} tests`);
        t.diagnostic(`${c.language} result: ${JSON.stringify(result)}`);
        assert.deepEqual(summary.pipeline, ["rename", "literal"]);
        assert.equal(readFileSync(input, "utf8"), c.input, "the input is untouched");
        // Checked again here, in its own directory: whittle's word alone is not taken for it.
        const check = join(dir, "check");
        mkdirSync(check);
        const copy = join(check, c.file);
        writeFileSync(copy, result);
        assert.ok(await interesting(oracle, copy), `the result is accepted:\n${result}`);
        assert.ok(result.length < c.input.length, "the result is smaller");
        for (const text of c.gone) assert.ok(!result.includes(text), `${text} is gone:\n${result}`);
        for (const text of c.kept) assert.ok(result.includes(text), `${text} is kept:\n${result}`);
      } finally {
        for (const stop of stops) await stop();
      }
    },
  );
}

test("--phase rename and --phase literal with an ANTLR grammar: exit 2, saying why, and nothing written", async () => {
  const { dir, input, test: t, env } = await jsonObjArr87Case();
  for (const phase of ["rename", "literal"]) {
    const out = join(dir, `out-${phase}.json`);
    const run = await runWhittle(
      [input, "--grammar", join(FIXTURES, "grammar", "JSON.g4"), "--phase", phase, "-o", out, "--test", t],
      { env },
    );
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(
        `--phase ${phase} works with the built-in languages only \\(--language\\): an ANTLR grammar`,
      ),
    );
    assert.ok(!existsSync(out));
  }
});
