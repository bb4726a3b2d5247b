/**
 * A cross-check of removability, not used at run time: for every named child of every node in the
 * samples of every built-in language, what grammar.json says (match.ts: the child is in a removable
 * group) against what node-types.json says (the child's field, or the node's unnamed children, is not
 * `required`, or is `multiple` and has more than one child). grammar.json stays the source of truth;
 * this measures how far node-types.json is from it, and in which direction.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Node } from "web-tree-sitter";
import { BUILT_IN_LANGUAGES, loadLanguage, packageRoot } from "../../src/grammar/tree-sitter/index.js";
import { nodeGroups } from "../../src/grammar/tree-sitter/match.js";
import { SAMPLES } from "./tree-sitter-samples.js";

interface ChildInfo {
  readonly required: boolean;
  readonly multiple: boolean;
  readonly types: readonly { readonly type: string; readonly named: boolean }[];
}
interface NodeType {
  readonly type: string;
  readonly named: boolean;
  readonly fields?: Record<string, ChildInfo>;
  readonly children?: ChildInfo;
}

/** Named children counted, and the two kinds of disagreement. */
interface Tally {
  children: number;
  /** node-types.json lets it go, grammar.json keeps it (grammar.json is conservative here). */
  onlyNodeTypes: number;
  /** grammar.json lets it go, node-types.json says it is required. */
  onlyGrammar: string[];
}

async function tally(language: (typeof BUILT_IN_LANGUAGES)[number]): Promise<Tally> {
  const lang = await loadLanguage(language);
  const file = join(packageRoot(lang.spec), lang.spec.dir, "src/node-types.json");
  const types = new Map(
    (JSON.parse(readFileSync(file, "utf8")) as NodeType[]).filter((t) => t.named).map((t) => [t.type, t]),
  );
  const out: Tally = { children: 0, onlyNodeTypes: 0, onlyGrammar: [] };
  for (const sample of SAMPLES[language]) {
    const tree = lang.parser.parse(sample)!;
    const stack: Node[] = [tree.rootNode];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const all = node.children.filter((c): c is Node => c !== null);
      const kids = all.filter((c) => !c.isExtra);
      stack.push(...kids.filter((c) => c.childCount > 0));
      const info = types.get(node.type);
      if (info === undefined || kids.length === 0) continue;
      const groups = nodeGroups(
        lang.grammar,
        node.grammarType,
        node.type,
        kids.map((c) => ({ type: c.type, named: c.isNamed })),
      );
      if (groups === undefined) continue;
      const inGroup = (i: number): boolean => groups.some((g) => g.start <= i && i < g.end);
      const fieldOf = kids.map((c) => {
        const index = all.indexOf(c);
        return node.fieldNameForChild(index) ?? undefined;
      });
      kids.forEach((child, i) => {
        if (!child.isNamed) return;
        const field = fieldOf[i];
        const entry = field === undefined ? info.children : info.fields?.[field];
        // A required field that also holds anonymous tokens may be required for the token alone
        // (PHP's `prefix: seq(optional("\\"), optional(namespace_name), "\\")`): node-types.json
        // does not say whether the named child may go.
        if (entry === undefined || (entry.required && entry.types.some((t) => !t.named))) return;
        const siblings = kids.filter((c, k) => c.isNamed && fieldOf[k] === field).length;
        const byNodeTypes = !entry.required || (entry.multiple && siblings > 1);
        const byGrammar = inGroup(i);
        out.children++;
        if (byNodeTypes && !byGrammar) out.onlyNodeTypes++;
        if (byGrammar && !byNodeTypes) {
          out.onlyGrammar.push(`${language} ${node.type}.${field ?? "children"} ${child.type}`);
        }
      });
    }
    tree.delete();
  }
  return out;
}

/**
 * Measured on the samples (15 languages, 2418 named children): 328 disagree (13.6 %), every one a
 * child that node-types.json lets go and grammar.json keeps — mostly a REPEAT1's first item or a
 * child that several derivations cover (match.ts keeps only what all of them agree on), and CSS's and
 * HTML's lists. None the other way: whatever grammar.json removes, node-types.json allows too.
 */
const RATE_BOUND = 0.15;

test("node-types.json and grammar.json on removability: how often and which way they disagree", async () => {
  let children = 0;
  let disagree = 0;
  const report: string[] = [];
  const onlyGrammar: string[] = [];
  for (const language of BUILT_IN_LANGUAGES) {
    const t = await tally(language);
    children += t.children;
    disagree += t.onlyNodeTypes + t.onlyGrammar.length;
    report.push(
      `${language}: ${t.children} named children, ${t.onlyNodeTypes} removable by node-types.json only, ${t.onlyGrammar.length} by grammar.json only`,
    );
    onlyGrammar.push(...t.onlyGrammar);
  }
  const rate = disagree / children;
  console.log(
    `${report.join("\n")}\nall: ${disagree} of ${children} disagree (${(rate * 100).toFixed(1)} %)`,
  );
  assert.ok(children > 2400, `only ${children} children`);
  assert.ok(rate < RATE_BOUND, `disagreement ${(rate * 100).toFixed(1)} %`);
  // grammar.json is never the more liberal: a child it removes is one node-types.json allows to go.
  assert.deepEqual(onlyGrammar, []);
});
