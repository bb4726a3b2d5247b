/**
 * Removability against the parser (issue 10): for every built-in language, every node the front-end
 * marks removable (from grammar.json, match.ts) is removed alone, exactly as HDD's prune removes it
 * (an edit set rendered with the front-end's glue check), and tree-sitter must parse the result
 * without an ERROR or MISSING node. Checked on the samples, on the tree as the passes see it (all
 * transforms) and on the bare tree, and on generated inputs: the samples after a whole level of HDD
 * (every removable node of one depth removed, or every node of one depth replaced by its minimal
 * replacement), which put the shortest derivations of shortest.ts next to the removals; and inputs
 * generated from grammar.json, for node kinds the samples lack: for each visible rule and each
 * optional part of its expression, and each alternative of what the part holds (through CHOICEs and
 * hidden rules), the rule's shortest derivation with that part present, put in place of the first
 * node of that rule in the samples (kept when tree-sitter parses it without an error).
 *
 * Results are grouped per (language, node kind); the test fails listing every kind whose removal broke
 * a parse, unless that kind is in KNOWN_EXCEPTIONS with its reason (and a stale exception fails too).
 *
 * The languages are checked by two test files, half each (removability-a/-b.test.ts), so that a
 * suite run with several files at once puts this CPU-bound check on both cores.
 */
import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import { TsGrammar, type Rule } from "../../src/grammar/tree-sitter/grammar-json.js";
import {
  BUILT_IN_LANGUAGES,
  TreeSitterFrontEnd,
  type BuiltInLanguage,
} from "../../src/grammar/tree-sitter/index.js";
import { shortestRuleTexts } from "../../src/grammar/tree-sitter/shortest.js";
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
  [
    "python async",
    "the same as bash's elif_clause: `async` is the first token of an indented `async for` (or `async " +
      "with`), and the newline and indentation before it are its hidden text, so they go with it " +
      "(`x = 1 for a in b:` on one line); render.ts gives the gap of a removed node with an empty " +
      "replacement to the node, which is wrong where line breaks are syntax (Python, Bash)",
  ],
]);

/** At most this many removals are checked per (language, kind, tree variant), in document order. */
const MAX_PER_KIND = 40;
/** At most this many generated inputs per sample. */
const MAX_GENERATED_PER_SAMPLE = 12;

const decoder = new TextDecoder();
const text = (b: Uint8Array): string => decoder.decode(b);
/** A short quoted excerpt; line breaks stay visible (`\n`), as they matter in Python and Bash. */
const snippet = (s: string, max = 60): string => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);

interface Failure {
  readonly kind: string;
  readonly removed: string;
  /** The rendering around where the node was. */
  readonly candidate: string;
  readonly where: string;
}

interface LanguageReport {
  /** Removals checked per node kind. */
  readonly kinds: Map<string, number>;
  removals: number;
  generated: number;
  /** Inputs with a rule's shortest text, one optional part present (generated from grammar.json). */
  filled: number;
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
      if (!hasSyntaxError(fe, candidate)) out.push(candidate);
    }
  }
  return out.slice(0, MAX_GENERATED_PER_SAMPLE);
}

/**
 * Whether tree-sitter finds an ERROR or MISSING node in `input` (the root's hasError): the question
 * `parseRaw(input).errors > 0` answers, without building the tree model; confirmed with parseRaw when
 * it says yes.
 */
function hasSyntaxError(fe: TreeSitterFrontEnd, input: Uint8Array): boolean {
  const tree = fe.language.parser.parse(text(input));
  if (tree === null) throw new Error("tree-sitter returned no tree");
  try {
    if (!tree.rootNode.hasError) return false;
  } finally {
    tree.delete();
  }
  return fe.parseRaw(input).errors > 0;
}

/** The optional parts of a rule's own expression (not through other rules), in pre-order. */
function isOptionalPart(rule: Rule): boolean {
  return (
    rule.type === "REPEAT" ||
    rule.type === "REPEAT1" ||
    (rule.type === "CHOICE" && rule.members.some((m) => m.type === "BLANK"))
  );
}

/**
 * The alternatives of an expression, through CHOICEs and hidden rules (`_statement`, supertypes):
 * each names a different kind of node that may stand there.
 */
function alternatives(grammar: TsGrammar, rule: Rule, seen = new Set<string>()): Rule[] {
  if (rule.type === "CHOICE") {
    return rule.members.filter((m) => m.type !== "BLANK").flatMap((m) => alternatives(grammar, m, seen));
  }
  if (rule.type === "SYMBOL" && grammar.isExpanded(rule.name) && grammar.rules.has(rule.name)) {
    if (seen.has(rule.name)) return [];
    seen.add(rule.name);
    return alternatives(grammar, grammar.rules.get(rule.name)!, seen);
  }
  return [rule];
}

/**
 * `rule` with its `index`-th optional part (pre-order) made present, once per alternative of what
 * the part holds: a REPEAT's item once, a REPEAT1's second item, a CHOICE's non-blank side. Returns
 * undefined when there is no such part.
 */
function fillPart(grammar: TsGrammar, rule: Rule, index: number): Rule[] | undefined {
  let seen = 0;
  let part: Rule | undefined;
  const hole: Rule = { type: "BLANK" };
  const visit = (r: Rule): Rule => {
    if (part !== undefined) return r;
    if (isOptionalPart(r) && seen++ === index) {
      part = r;
      return hole;
    }
    return mapParts(r, visit);
  };
  const skeleton = visit(rule);
  const found = part;
  if (found === undefined) return undefined;
  const content = found.type === "CHOICE" ? found : "content" in found ? found.content : found;
  const fills = alternatives(grammar, content).map((alt): Rule =>
    found.type === "REPEAT1" ? { type: "SEQ", members: [found.content, alt] } : alt,
  );
  // The hole is the only BLANK object of this identity: put each fill in its place.
  const put = (r: Rule, fill: Rule): Rule => {
    if (r === hole) return fill;
    return mapParts(r, (m) => put(m, fill));
  };
  return fills.map((fill) => put(skeleton, fill));
}

/**
 * Generated cases from grammar.json: for each visible rule and each optional part of its expression,
 * the shortest text of the rule with that part present (one shortest-derivation fixed point of
 * shortest.ts over the grammar with a synthetic rule per part). Returns rule name → texts.
 */
function filledTexts(fe: TreeSitterFrontEnd): Map<string, string[]> {
  const { grammar, spec } = fe.language;
  const rules: Record<string, Rule> = { ...grammar.json.rules };
  const synthetic: [string, string][] = [];
  for (const [name, rule] of grammar.rules) {
    if (grammar.isExpanded(name)) continue;
    for (let i = 0; ; i++) {
      const filled = fillPart(grammar, rule, i);
      if (filled === undefined) break;
      for (const variant of filled) {
        const key = `whittle_filled_${synthetic.length}`;
        rules[key] = variant;
        synthetic.push([key, name]);
      }
    }
  }
  const shortest = shortestRuleTexts(
    new TsGrammar({ ...grammar.json, rules }),
    new Map(Object.entries(spec.externalTexts)),
    spec.wordCharacters,
  );
  const out = new Map<string, string[]>();
  for (const [key, name] of synthetic) {
    const text = shortest.get(key);
    if (text === undefined || text === shortest.get(name)) continue;
    const texts = out.get(name) ?? [];
    if (!texts.includes(text)) out.set(name, [...texts, text]);
  }
  return out;
}

/**
 * Each text of `filledTexts` put in place of the first node of its rule's kind in the samples, when
 * the result parses without an error: the input and where the generated text stands in it.
 */
function embeddedFilledTexts(
  fe: TreeSitterFrontEnd,
  samples: readonly Uint8Array[],
): { input: Uint8Array; start: number; end: number; rule: string }[] {
  const firstOfKind = new Map<string, { sample: Uint8Array; start: number; end: number }>();
  for (const sample of samples) {
    const tree = Tree.build(sample, fe.parseRaw(sample).root, NO_TRANSFORMS);
    for (let id = 1; id < tree.size; id++) {
      if (!firstOfKind.has(tree.kind(id)) && !tree.isToken(id)) {
        firstOfKind.set(tree.kind(id), { sample, start: tree.start(id), end: tree.end(id) });
      }
    }
  }
  const out: { input: Uint8Array; start: number; end: number; rule: string }[] = [];
  for (const [rule, texts] of filledTexts(fe)) {
    const place = firstOfKind.get(rule);
    if (place === undefined) continue;
    for (const generated of texts) {
      const bytes = Buffer.from(generated);
      const input = Buffer.concat([
        place.sample.subarray(0, place.start),
        bytes,
        place.sample.subarray(place.end),
      ]);
      if (!hasSyntaxError(fe, input)) {
        out.push({ input, start: place.start, end: place.start + bytes.length, rule });
      }
    }
  }
  return out;
}

/**
 * Checks every removable node of `input` (at most MAX_PER_KIND per kind and variant), or only those
 * within `range` (bytes) when given.
 */
function checkInput(
  fe: TreeSitterFrontEnd,
  input: Uint8Array,
  where: string,
  report: LanguageReport,
  range?: { start: number; end: number },
): void {
  const { root } = fe.parseRaw(input); // Tree.build copies it: one parse for both variants
  for (const [variant, transforms] of VARIANTS) {
    const tree = Tree.build(input, root, transforms);
    const perKind = new Map<string, number>();
    for (let id = 1; id < tree.size; id++) {
      if (!tree.isRemovable(id)) continue;
      if (range !== undefined && (tree.start(id) < range.start || tree.end(id) > range.end)) continue;
      const kind = tree.kind(id);
      const n = perKind.get(kind) ?? 0;
      if (n >= MAX_PER_KIND) continue;
      perKind.set(kind, n + 1);
      // As HDD's prune builds a candidate: the edit set with the node removed, rendered with glue.
      const candidate = render(tree, EditSet.EMPTY.withRemoved(new Set([id])), fe.glue);
      report.kinds.set(kind, (report.kinds.get(kind) ?? 0) + 1);
      report.removals++;
      if (hasSyntaxError(fe, candidate)) {
        report.failures.push({
          kind,
          removed: text(tree.text(id)),
          // Around the removal: the rendering is the input's bytes up to the removed node's hidden text.
          candidate: text(candidate.subarray(Math.max(0, tree.start(id) - 40), tree.start(id) + 40)),
          where: `${where}, ${variant}`,
        });
      }
    }
  }
}

/** The built-in languages in two halves (every other one: the slow ones are not all in one half). */
export const LANGUAGE_HALVES = [0, 1].map((half) => BUILT_IN_LANGUAGES.filter((_, i) => i % 2 === half));

/** Checks `languages` (see above), failing on unexpected removals and on their stale known exceptions. */
export async function checkRemovability(
  t: TestContext,
  languages: readonly BuiltInLanguage[],
): Promise<void> {
  const unexpected: string[] = [];
  const stale = new Set(
    [...KNOWN_EXCEPTIONS.keys()].filter((key) => languages.some((l) => key.startsWith(`${l} `))),
  );
  for (const language of languages) {
    const fe = await TreeSitterFrontEnd.load({ language });
    const report: LanguageReport = { kinds: new Map(), removals: 0, generated: 0, filled: 0, failures: [] };
    SAMPLES[language].forEach((sample, i) => {
      const input = Buffer.from(sample);
      assert.equal(fe.parseRaw(input).errors, 0, `${language} sample ${i} has a syntax error`);
      checkInput(fe, input, `sample ${i}`, report);
      generatedInputs(fe, input).forEach((generated, j) => {
        report.generated++;
        checkInput(fe, generated, `sample ${i}, generated ${j}`, report);
      });
    });
    for (const { input, start, end, rule } of embeddedFilledTexts(
      fe,
      SAMPLES[language].map((sample) => Buffer.from(sample)),
    )) {
      report.filled++;
      checkInput(fe, input, `a filled ${rule}: ${snippet(text(input.subarray(start, end)))}`, report, {
        start,
        end,
      });
    }
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
        `(${SAMPLES[language].length} samples, ${report.generated} HDD-level inputs, ${report.filled} filled rules), ` +
        `${report.failures.length} broke the parse (${[...failedKinds.keys()].join(", ") || "none"})`,
    );
  }
  assert.deepEqual(unexpected, [], `removals that break the parse:\n${unexpected.join("\n")}`);
  assert.deepEqual([...stale], [], "known exceptions that no longer fail: remove them from KNOWN_EXCEPTIONS");
}

/**
 * `r` with `f` applied to each of its direct parts; BLANK, STRING, PATTERN, SYMBOL and tokens (whose
 * parts make no nodes) are returned as they are.
 */
function mapParts(r: Rule, f: (part: Rule) => Rule): Rule {
  switch (r.type) {
    case "SEQ":
    case "CHOICE":
      return { ...r, members: r.members.map(f) };
    case "REPEAT":
    case "REPEAT1":
    case "FIELD":
    case "ALIAS":
    case "PREC":
    case "PREC_LEFT":
    case "PREC_RIGHT":
    case "PREC_DYNAMIC":
    case "RESERVED":
      return { ...r, content: f(r.content) };
    default:
      return r;
  }
}
