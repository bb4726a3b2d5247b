import { AnswerRate } from "../ddmin/speculative-ddmin.js";
import { ChanceCalibration } from "../ddmin/ddmin.js";
import type { Pass } from "../passes/pass.js";
import type { GlueCheck } from "../tree/raw.js";
import type { Tree } from "../tree/tree.js";
import { biggest } from "./biggest.js";
import { sameKind, TreeSearch, type Compatibility } from "./search.js";
import { runStages, type Stage } from "./stages.js";

/**
 * The tree algorithms, each a walk over the levels (or nodes) of the tree:
 * - `prune`: HDD (Misherghi & Su), ddmin over each level's nodes, a removed node becoming its
 *   minimal replacement;
 * - `coarse`: coarse HDD, the same over nodes whose replacement is empty only;
 * - `hoist`: HOIST (hoisting paper, Fig. 8), TMIN^χ over each level's nodes;
 * - `prune+hoist`: HDDH (Fig. 9), ddmin then TMIN^χ over the kept nodes, level by level;
 * - `hddr`, `hddr-dfs`: HDDr (Kiss, Hodován, Gyimóthy), ddmin over one node's children at a time,
 *   breadth-first or depth-first from the root; `-rev` suffixes visit the children last to first;
 * - `chain`: each chain of single compatible descendants (`[[[[x]]]]`) hoisted at once to its
 *   deepest link that works, in one test when the deepest does (TreeSearch.chains); not from the
 *   papers;
 * - `biggest`: the largest nodes first, across levels, each replaced by its minimal replacement alone
 *   (a max-heap by size in bytes, as in Perses and treereduce), until the largest left is small next to
 *   the input (biggest.ts); not from the papers.
 */
export const ALGORITHMS = [
  "prune",
  "coarse",
  "hoist",
  "prune+hoist",
  "hddr",
  "hddr-rev",
  "hddr-dfs",
  "hddr-dfs-rev",
  "chain",
  "biggest",
] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** One phase of a tree pipeline: an algorithm, run once or (`star`) until it changes nothing. */
export interface Phase {
  readonly algorithm: Algorithm;
  readonly star: boolean;
}

/** "prune*" → { algorithm: "prune", star: true }; throws RangeError for an unknown name. */
export function parsePhase(text: string): Phase {
  const star = text.endsWith("*");
  const algorithm = star ? text.slice(0, -1) : text;
  if (!(ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new RangeError(
      `unknown phase ${JSON.stringify(text)}: expected one of ${ALGORITHMS.join(", ")}, optionally with *`,
    );
  }
  return { algorithm: algorithm as Algorithm, star };
}

export function phaseName(phase: Phase): string {
  return `${phase.algorithm}${phase.star ? "*" : ""}`;
}

/** Parses an input into a tree (a grammar-aware front-end). */
export interface TreeFrontEnd {
  parse(input: Uint8Array): { tree: Tree; glue: GlueCheck };
  /** Optional: whether `text` is one of the grammar's literal texts (a keyword, an operator). */
  isLiteral?(text: string): boolean;
  /**
   * Optional: `within` widened to the kinds of one supertype of the grammar, for the phases of
   * SUPERTYPE_HOISTING (a built-in language: TreeSitterFrontEnd.supertypeCompatibility).
   */
  supertypeCompatibility?(within: Compatibility): Compatibility;
}

type Parsed = ReturnType<TreeFrontEnd["parse"]>;

/**
 * The tree of a tree pass that changed nothing, for the next pass of the same front-end that starts
 * from the same input: the chain pass changes nothing on most inputs, and a parse with an ANTLR
 * grammar can take most of a minute (130 KB of JavaScript). The tree is immutable; it is taken once.
 */
const unchanged = new WeakMap<TreeFrontEnd, { input: Uint8Array; parsed: Parsed }>();

/** Leaves the tree of `input` to the next pass, which starts from the same input (parseForPass). */
export function keepForNextPass(frontEnd: TreeFrontEnd, input: Uint8Array, parsed: Parsed): void {
  unchanged.set(frontEnd, { input, parsed });
}

/** The tree of `input`: the one the previous pass left unchanged, or a new parse. */
export function parseForPass(frontEnd: TreeFrontEnd, input: Uint8Array): Parsed {
  const kept = unchanged.get(frontEnd);
  unchanged.delete(frontEnd);
  return kept !== undefined && kept.input === input ? kept.parsed : frontEnd.parse(input);
}

/**
 * The phases whose hoisting also replaces a node by a descendant of another kind of one of the
 * grammar's supertypes (a built-in language's `expression`, `statement`: TreeFrontEnd.
 * supertypeCompatibility), besides the same kind: HDDH, which the default pipeline runs last, on a tree
 * that coarse HDD and HOIST have already made small. HOIST and `chain` keep to the same kind: they run
 * first, over the whole tree, where every kind of a supertype is a candidate more for each node. With
 * supertypes in every hoisting phase (bench/results/2026-12-02-supertype-hoisting), `hoist*` took 241
 * s and 322 s of the two 130 KB JavaScript cases' first 10 minutes (js-esquery-syntax-error at 3,886
 * non-whitespace characters after them, not 1,457), and an early hoist led ledger.py's real-oracle test
 * to a local minimum of 73 characters instead of 54. In HDDH only (bench/results/2026-12-02-hddh-supertypes):
 * ledger.py 54; six generated JavaScript programs 17 characters each instead of 38 in the same 654 tests.
 */
export const SUPERTYPE_HOISTING: ReadonlySet<Algorithm> = new Set<Algorithm>(["prune+hoist"]);

/**
 * A pipeline pass that runs one phase on the tree of the current input. The tree is built once, from
 * the input the pass starts with; the phase's iterations extend one edit set over it.
 */
export function treePass(phase: Phase, frontEnd: TreeFrontEnd, within: Compatibility = sameKind): Pass {
  const name = `hdd:${phaseName(phase)}`;
  const compatible =
    SUPERTYPE_HOISTING.has(phase.algorithm) && frontEnd.supertypeCompatibility
      ? frontEnd.supertypeCompatibility(within)
      : within;
  return {
    name,
    async run({ current, evaluator, options, signal, emit, settled }) {
      const parsed = parseForPass(frontEnd, current);
      const { tree, glue } = parsed;
      emit({ type: "pass", pass: name, units: tree.size, size: current.length });
      // One calibration of ProbDD's chances, and one rate of ddmin's answers, for all of the pass's
      // searches (levels, iterations): a level's search is a few tests, too few to learn from.
      const passOptions = { ...options, calibration: new ChanceCalibration(), answerRate: new AnswerRate() };
      const search = new TreeSearch(tree, glue, evaluator, passOptions, signal, emit, name, compatible);
      try {
        for (let iteration = 0; ; iteration++) {
          // An iteration after the first starts from the best so far, and the last changes nothing.
          if (iteration > 0) settled?.();
          const changed = await runOnce(search, phase.algorithm, iteration);
          if (iteration === 0 && !changed) keepForNextPass(frontEnd, current, parsed);
          if (!phase.star || !changed) return { kind: "done" };
        }
      } catch (error) {
        if (signal.aborted) return { kind: "stopped", reason: signal.reason };
        throw error;
      } finally {
        evaluator.close();
      }
    },
  };
}

/** One run of an algorithm over the whole tree; whether it changed anything. */
export async function runOnce(search: TreeSearch, algorithm: Algorithm, iteration: number): Promise<boolean> {
  if (algorithm === "chain") return search.chains();
  if (algorithm === "biggest") return biggest(search);
  if (algorithm.startsWith("hddr")) {
    return hddr(search, iteration, !algorithm.includes("dfs"), algorithm.endsWith("-rev"));
  }
  const perLevel = algorithm === "prune+hoist" ? 2 : 1;
  const stage: Stage = async (search, k) => {
    const level = Math.floor(k / perLevel);
    // HDDH hoists among the nodes the pruning kept (its minconfig): the level's nodes after it.
    const { nodes, tokens, levels } = search.tagNodes(level);
    if (nodes.length === 0) return "end";
    if (k % perLevel === 1) return search.hoist(nodes, level);
    search.emit({ type: "level", pass: search.pass, iteration, level, nodes: nodes.length, tokens, levels });
    if (algorithm === "hoist") return search.hoist(nodes, level);
    return search.prune(nodes, level, algorithm === "coarse");
  };
  return runStages(search, stage, stagesAhead(search.options.jobs));
}

/**
 * How many levels' stages run ahead of the current one with `jobs` tests at once (runStages): none
 * with one or two jobs, else one per job. With two, ProbDD's own speculation keeps both slots busy
 * and levels ahead bought no time (section `jobs`, tests 0.2 s slower: 328.0 s against 328.7 s
 * at -j 2 in all, bench/results/2026-11-27-a17be0d) for 7 % more tests with the real oracles at the
 * default -j 2 (bench/results/2026-11-27-2ad2d43); with more, a level's last rounds leave slots
 * that the next levels fill.
 */
export function stagesAhead(jobs: number): number {
  return jobs > 2 ? Math.floor(jobs) : 0;
}

/**
 * HDDr: starting at the root, ddmin over the children of one node at a time; the kept children are
 * queued (breadth-first) or stacked (depth-first), in order or reversed.
 */
async function hddr(
  search: TreeSearch,
  iteration: number,
  breadthFirst: boolean,
  reversed: boolean,
): Promise<boolean> {
  let changed = false;
  const pending: [number, number][] = [[0, 0]];
  const presentChildren = (id: number): number[] => {
    const out: number[] = [];
    for (const child of search.tree.children(id)) {
      let c = child;
      for (let h = search.edits.hoistOf(c); h !== undefined; h = search.edits.hoistOf(c)) c = h;
      if (!search.edits.isRemoved(c)) out.push(c);
    }
    return out;
  };
  while (pending.length > 0) {
    const [node, depth] = breadthFirst ? pending.shift()! : pending.pop()!;
    const children = presentChildren(node);
    if (children.length === 0) continue;
    search.emit({
      type: "level",
      pass: search.pass,
      iteration,
      level: depth + 1,
      nodes: children.length,
      tokens: search.presentTokens(),
    });
    if (await search.prune(children, depth + 1, false)) changed = true;
    const kept = presentChildren(node);
    const next = kept.map((c): [number, number] => [c, depth + 1]);
    if (reversed) next.reverse();
    // A stack pops its last entry first: push depth-first children reversed to visit them in order.
    pending.push(...(breadthFirst ? next : next.reverse()));
  }
  return changed;
}
