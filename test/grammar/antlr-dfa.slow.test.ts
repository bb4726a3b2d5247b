/**
 * ANTLR's lookahead DFAs as whittle's interpreters use them (src/grammar/antlr/dfa.ts): states are
 * found by their configurations, not by a hash of them alone, and a decision's DFA that outgrows its
 * bound starts afresh without changing the parse.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ATNConfigSet, DFAState } from "antlr4ng";
import { ExactDFA } from "../../src/grammar/antlr/dfa.js";
import { loadAntlrGrammar, type AntlrGrammar } from "../../src/grammar/antlr/index.js";
import type { RawNode } from "../../src/tree/raw.js";
import { LARGE_PARSE_BYTES } from "../../src/tree/reclaim.js";
import { FIXTURES } from "./helpers.js";

const JSON_G4 = join(FIXTURES, "JSON.g4");
const JAVA_G4 = join(FIXTURES, "java-mini", "JavaMini.g4");
const JAVA_INPUT = readFileSync(join(FIXTURES, "..", "localized-pi", "LocalizedPi.java"));
const JSON_INPUT = Buffer.from('{"a": [1, 2.5e3, {"b": null}], "c": {"d": [true, false, "x"]}, "e": []}');

const load = (file: string, maxDfaConfigurations?: number): Promise<AntlrGrammar> =>
  loadAntlrGrammar({
    grammarFiles: [file],
    cacheDir: false,
    ...(file === JAVA_G4 ? { start: "compilationUnit" } : {}),
    ...(maxDfaConfigurations === undefined ? {} : { maxDfaConfigurations }),
  });

/** A tree as kinds and spans, for comparing parses. */
function shape(node: RawNode | null): unknown {
  if (node === null) return null;
  return [node.kind, node.start, node.end, node.children.map(shape)];
}

/** A configuration set as the DFA sees it: its configurations (compared by `equals`) and a hash. */
function configSet(hash: number, ...configs: string[]): ATNConfigSet {
  const items = configs.map((name) => ({ name, equals: (o: { name: string }) => o.name === name }));
  return { configs: items, hashCode: () => hash } as unknown as ATNConfigSet;
}

describe("ExactDFA", () => {
  test("two configuration sets with one hash are two states; each is found by its configurations", () => {
    const dfa = new ExactDFA(null, 0);
    const a = DFAState.fromConfigs(configSet(7, "p", "q"));
    const b = DFAState.fromConfigs(configSet(7, "p", "r"));
    const c = DFAState.fromConfigs(configSet(7, "s"));
    for (const s of [a, b, c]) dfa.addState(s);
    assert.equal(dfa.length, 3);
    assert.deepEqual(
      [a, b, c].map((s) => s.stateNumber),
      [0, 1, 2],
    );
    assert.equal(dfa.getStateForConfigs(configSet(7, "p", "r")), b);
    assert.equal(dfa.getState(DFAState.fromConfigs(configSet(7, "s"))), c);
    assert.equal(dfa.getStateForConfigs(configSet(7, "q", "p")), null); // order counts
    assert.equal(dfa.getStateForConfigs(configSet(8, "p", "q")), null);
    assert.deepEqual([...dfa], [a, b, c]);
    assert.deepEqual(dfa.getStates(), [a, b, c]);
  });

  test("a state equal to one held is not added again", () => {
    const dfa = new ExactDFA(null, 0);
    const a = DFAState.fromConfigs(configSet(1, "p"));
    dfa.addState(a);
    dfa.addState(DFAState.fromConfigs(configSet(1, "p")));
    assert.equal(dfa.length, 1);
    assert.equal(dfa.getStateForConfigs(configSet(1, "p")), a);
  });
});

describe("parsing when configuration sets have only four hashes", () => {
  // Collisions made common: antlr4ng's own DFA, keyed by hash alone, then continues predictions
  // from states of other configuration sets and reports syntax errors in these valid inputs (as it
  // does, rarely, on large real ones). With a single hash for all, it goes round one state for ever.
  const BUCKETS = 0b11;
  const hashCode = Object.getOwnPropertyDescriptor(ATNConfigSet.prototype, "hashCode")!;
  const expected = new Map<string, unknown>();
  before(async () => {
    for (const [file, input] of [
      [JSON_G4, JSON_INPUT],
      [JAVA_G4, JAVA_INPUT],
    ] as const) {
      expected.set(file, shape((await load(file)).parse(input).root));
    }
    const real = hashCode.value as (this: ATNConfigSet) => number;
    Object.defineProperty(ATNConfigSet.prototype, "hashCode", {
      ...hashCode,
      value(this: ATNConfigSet): number {
        return real.call(this) & BUCKETS;
      },
    });
  });
  after(() => Object.defineProperty(ATNConfigSet.prototype, "hashCode", hashCode));

  for (const [name, file, input] of [
    ["JSON", JSON_G4, JSON_INPUT],
    ["Java (left-recursive expressions, precedence DFAs)", JAVA_G4, JAVA_INPUT],
  ] as const) {
    test(`${name}: valid input parses without errors, to the same tree`, async () => {
      const g = await load(file);
      const { root, syntaxErrors } = g.parse(input, { allowSyntaxErrors: true });
      assert.equal(syntaxErrors, 0);
      assert.deepEqual(shape(root), expected.get(file));
    });
  }
});

describe("the bound on a decision's DFA", () => {
  test("a small bound keeps the DFAs small and the parse the same", async () => {
    const unbounded = await load(JAVA_G4, Infinity);
    const bounded = await load(JAVA_G4, 2);
    const want = shape(unbounded.parse(JAVA_INPUT).root);
    // Twice: the second parse starts from the DFAs the first left.
    for (let i = 0; i < 2; i++) assert.deepEqual(shape(bounded.parse(JAVA_INPUT).root), want);
    const sizes = { bounded: bounded.dfaSizes(), unbounded: unbounded.dfaSizes() };
    const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
    assert.ok(sum(sizes.bounded) < sum(sizes.unbounded), JSON.stringify(sizes));
    assert.ok(Math.max(...sizes.bounded) < Math.max(...sizes.unbounded), JSON.stringify(sizes));
  });

  test("the default bound leaves a small input's DFAs whole", async () => {
    const g = await load(JAVA_G4);
    const unbounded = await load(JAVA_G4, Infinity);
    g.parse(JAVA_INPUT);
    unbounded.parse(JAVA_INPUT);
    assert.ok(g.dfaSizes().some((n) => n > 0));
    assert.deepEqual(g.dfaSizes(), unbounded.dfaSizes());
  });

  test("a large input's DFAs are let go of after its parse; a small one's are kept", async () => {
    const g = await load(JSON_G4);
    g.parse(JSON_INPUT);
    assert.ok(g.dfaSizes().some((n) => n > 0));
    const items = Array.from({ length: 40_000 }, (_, i) => `{"k${i % 97}": [${i}, "v", null]}`);
    const large = Buffer.from(`[${items.join(",")}]`);
    assert.ok(large.length >= LARGE_PARSE_BYTES);
    assert.ok(g.parse(large).root);
    assert.ok(g.dfaSizes().every((n) => n === 0));
  });
});
