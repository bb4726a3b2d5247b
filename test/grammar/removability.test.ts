/**
 * Removability against the parser (issue 10): for every built-in language, every node the front-end
 * marks removable (from grammar.json, match.ts) is removed alone, exactly as HDD's prune removes it
 * (an edit set rendered with the front-end's glue check), and tree-sitter must parse the result
 * without an ERROR or MISSING node. Checked on the samples, on the tree as the passes see it (all
 * transforms) and on the bare tree, and on generated inputs: the samples after a whole level of HDD
 * (every removable node of one depth removed, or every node of one depth replaced by its minimal
 * replacement), which put the shortest derivations of shortest.ts next to the removals.
 *
 * Results are grouped per (language, node kind); the test fails listing every kind whose removal broke
 * a parse, unless that kind is in KNOWN_EXCEPTIONS with its reason (and a stale exception fails too).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Rule, TsGrammar } from "../../src/grammar/tree-sitter/grammar-json.js";
import { BUILT_IN_LANGUAGES, TreeSitterFrontEnd } from "../../src/grammar/tree-sitter/index.js";
import { EditSet } from "../../src/tree/edits.js";
import { render } from "../../src/tree/render.js";
import { ALL_TRANSFORMS, NO_TRANSFORMS, Tree, type TreeTransforms } from "../../src/tree/tree.js";
import { SAMPLES } from "./tree-sitter-samples.js";

/**
 * (language, kind) pairs whose removal is known to break a parse, with the reason. Every failure of
 * a kind listed here is expected; any other failure, and any entry that no longer fails, fails the test.
 */
const KNOWN_EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  [
    "bash elif_clause",
    "the newline that ends the statement before `elif` is hidden text before the elif clause and goes " +
      "with it, leaving `b fi` on one line (HDD finds such a candidate not interesting and goes on)",
  ],
]);

/** At most this many removals are checked per (language, kind, tree variant), in document order. */
const MAX_PER_KIND = 40;
/** At most this many generated inputs per sample. */
const MAX_GENERATED_PER_SAMPLE = 12;

const decoder = new TextDecoder();
const text = (b: Uint8Array): string => decoder.decode(b);
const snippet = (s: string, max = 60): string => {
  const one = s.replace(/\s+/g, " ");
  return JSON.stringify(one.length > max ? `${one.slice(0, max)}…` : one);
};

interface Failure {
  readonly kind: string;
  readonly removed: string;
  readonly candidate: string;
  readonly where: string;
}

interface LanguageReport {
  /** Removals checked per node kind. */
  readonly kinds: Map<string, number>;
  removals: number;
  generated: number;
  readonly failures: Failure[];
}

const VARIANTS: readonly [string, TreeTransforms][] = [
  ["transforms", ALL_TRANSFORMS],
  ["bare", NO_TRANSFORMS],
];

/**
 * The named node kinds that grammar.json puts in a removable slot somewhere (inside a REPEAT, a
 * REPEAT1 or a CHOICE with BLANK), through hidden and inlined rules: what the samples could cover.
 */
function declaredRemovableKinds(grammar: TsGrammar): Set<string> {
  const kinds = new Set<string>();
  const expandedSeen = new Set<string>();
  const walk = (rule: Rule, optional: boolean): void => {
    switch (rule.type) {
      case "SYMBOL":
        if (!grammar.rules.has(rule.name)) return; // an external token
        if (grammar.isExpanded(rule.name)) {
          // A hidden rule's children stand in its parent's slot: optional if the slot is.
          const key = `${rule.name} ${optional}`;
          if (!expandedSeen.has(key)) {
            expandedSeen.add(key);
            walk(grammar.rules.get(rule.name)!, optional);
          }
        } else if (optional) kinds.add(rule.name);
        return;
      case "ALIAS":
        if (optional && rule.named) kinds.add(rule.value);
        else if (rule.content.type !== "SYMBOL") walk(rule.content, optional);
        return;
      case "SEQ":
        for (const m of rule.members) walk(m, optional);
        return;
      case "CHOICE": {
        const blank = rule.members.some((m) => m.type === "BLANK");
        for (const m of rule.members) walk(m, optional || blank);
        return;
      }
      case "REPEAT":
      case "REPEAT1":
        walk(rule.content, true);
        return;
      case "FIELD":
      case "PREC":
      case "PREC_LEFT":
      case "PREC_RIGHT":
      case "PREC_DYNAMIC":
      case "RESERVED":
        walk(rule.content, optional);
        return;
      default:
        return; // BLANK, STRING, PATTERN, TOKEN: no named node of a rule
    }
  };
  for (const [name, rule] of grammar.rules) if (!grammar.isExpanded(name)) walk(rule, false);
  return kinds;
}

/**
 * Inputs made from `input` as one level of HDD would leave it: at each depth, every removable node
 * removed, and every node that is not fixed replaced by its minimal replacement. Only those that parse
 * without an error are kept (a whole level at once may break a parse where each removal alone does
 * not: that is not what this test checks).
 */
function generatedInputs(fe: TreeSitterFrontEnd, input: Uint8Array): Uint8Array[] {
  const { tree, glue } = fe.parse(input);
  const seen = new Set<string>([text(input)]);
  const out: Uint8Array[] = [];
  let maxDepth = 0;
  for (let id = 0; id < tree.size; id++) maxDepth = Math.max(maxDepth, tree.depth(id));
  for (let depth = 1; depth <= maxDepth && out.length < MAX_GENERATED_PER_SAMPLE; depth++) {
    const level = tree.level(depth);
    for (const pick of [(id: number) => tree.isRemovable(id), (id: number) => !tree.isFixed(id)]) {
      const ids = level.filter(pick);
      if (ids.length === 0) continue;
      const candidate = render(tree, EditSet.EMPTY.remove(ids), glue);
      const key = text(candidate);
      if (seen.has(key)) continue;
      seen.add(key);
      if (fe.parseRaw(candidate).errors === 0) out.push(candidate);
    }
  }
  return out.slice(0, MAX_GENERATED_PER_SAMPLE);
}

/** Checks every removable node of `input` (at most MAX_PER_KIND per kind and variant). */
function checkInput(fe: TreeSitterFrontEnd, input: Uint8Array, where: string, report: LanguageReport): void {
  for (const [variant, transforms] of VARIANTS) {
    const tree = Tree.build(input, fe.parseRaw(input).root, transforms);
    const perKind = new Map<string, number>();
    for (let id = 1; id < tree.size; id++) {
      if (!tree.isRemovable(id)) continue;
      const kind = tree.kind(id);
      const n = perKind.get(kind) ?? 0;
      if (n >= MAX_PER_KIND) continue;
      perKind.set(kind, n + 1);
      // As HDD's prune builds a candidate: the edit set with the node removed, rendered with glue.
      const candidate = render(tree, EditSet.EMPTY.withRemoved(new Set([id])), fe.glue);
      report.kinds.set(kind, (report.kinds.get(kind) ?? 0) + 1);
      report.removals++;
      if (fe.parseRaw(candidate).errors > 0) {
        report.failures.push({
          kind,
          removed: text(tree.text(id)),
          candidate: text(candidate),
          where: `${where}, ${variant}`,
        });
      }
    }
  }
}

test("removing a node whose slot is removable keeps every built-in language's input parseable", async (t) => {
  const unexpected: string[] = [];
  const stale = new Set(KNOWN_EXCEPTIONS.keys());
  for (const language of BUILT_IN_LANGUAGES) {
    const fe = await TreeSitterFrontEnd.load({ language });
    const report: LanguageReport = { kinds: new Map(), removals: 0, generated: 0, failures: [] };
    SAMPLES[language].forEach((sample, i) => {
      const input = Buffer.from(sample);
      assert.equal(fe.parseRaw(input).errors, 0, `${language} sample ${i} has a syntax error`);
      checkInput(fe, input, `sample ${i}`, report);
      generatedInputs(fe, input).forEach((generated, j) => {
        report.generated++;
        checkInput(fe, generated, `sample ${i}, generated ${j}`, report);
      });
    });
    const failedKinds = new Map<string, Failure[]>();
    for (const f of report.failures) failedKinds.set(f.kind, [...(failedKinds.get(f.kind) ?? []), f]);
    for (const [kind, failures] of failedKinds) {
      const key = `${language} ${kind}`;
      stale.delete(key);
      if (KNOWN_EXCEPTIONS.has(key)) continue;
      const f = failures[0]!;
      unexpected.push(
        `${language} ${kind} (${failures.length} of ${report.kinds.get(kind)}): removing ${snippet(f.removed)} (${f.where}) gives ${snippet(f.candidate, 200)}`,
      );
    }
    const declared = declaredRemovableKinds(fe.language.grammar);
    const covered = [...declared].filter((k) => report.kinds.has(k)).length;
    t.diagnostic(
      `${language}: ${report.kinds.size} removable kinds covered (${covered} of the ${declared.size} named ` +
        `kinds grammar.json puts in a removable slot), ${report.removals} removals checked ` +
        `(${SAMPLES[language].length} samples, ${report.generated} generated inputs), ` +
        `${report.failures.length} broke the parse (${[...failedKinds.keys()].join(", ") || "none"})`,
    );
  }
  assert.deepEqual(unexpected, [], `removals that break the parse:\n${unexpected.join("\n")}`);
  assert.deepEqual([...stale], [], "known exceptions that no longer fail: remove them from KNOWN_EXCEPTIONS");
});
