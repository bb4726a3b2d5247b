/**
 * The default pipeline as data (src/passes/schedule.ts): the schedule compiles to the passes, order
 * and per-pass options the pipeline had before it was data, and describes itself in words.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { buildPipeline, planPipeline } from "../../src/cli/pipeline.js";
import { scheduleRecords } from "../../src/cli/schedule-view.js";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import type { Pass, PassContext } from "../../src/passes/pass.js";
import {
  atomSchedule,
  compileSchedule,
  DEFAULT_TREE_PHASES,
  DEFAULT_TREE_SCHEDULE,
  describeSchedule,
  forRun,
} from "../../src/passes/schedule.js";
import type { ResolvedOptions } from "../../src/reduce/options.js";
import { FIXTURES } from "../helpers/cli.js";
import { frontEnd } from "../helpers/passes.js";

/**
 * The polish's options as the pipeline set them before the schedule (its `polished` wrapper); they
 * hold with an ANTLR grammar. With a built-in language, since 2026-12-07, adaptive deletion at every
 * length (POLISH_BUILT_IN).
 */
const POLISH = {
  subsetGranularity: 16,
  algorithm: "adaptive",
  adaptiveAbove: 16,
  ddminOnlyWithGrammar: true,
};
const POLISH_BUILT_IN: Record<string, unknown> = { algorithm: "adaptive" };

/** The glyph pass's: every list by adaptive deletion's scan, without the pairs (since 2026-11-29). */
const GLYPH = { algorithm: "adaptive", adaptiveAbove: 0, pairs: false };

/** The tree phases' options: ProbDD, its p0 learned per pass (since the schedule). */
const TREE = { algorithm: "probdd", learnP0: true };

/**
 * The default grammar pipeline before it was data, written out: each phase, the options it ran
 * with over the run's, and the languages it ran for; `biggest` only from 64 KiB on. Since then
 * glyph's options changed, rename and literal moved before prune+hoist* for the built-in
 * languages that have identifiers (literal stays after token for those that have none; rename
 * has nothing to do there), and `hidden` (the comments) came first.
 */
type Languages = "all" | "names" | "no names";
const BEFORE: [string, Record<string, unknown>, Languages][] = [
  ["hidden", POLISH, "all"],
  ["chain", TREE, "all"],
  ["biggest", {}, "all"],
  ["coarse", TREE, "all"],
  ["hoist*", TREE, "all"],
  ["rename", POLISH, "names"],
  ["literal", POLISH, "names"],
  ["prune+hoist*", TREE, "all"],
  ["token", POLISH, "all"],
  ["literal", POLISH, "no names"],
  ["glyph", GLYPH, "all"],
  ["blank", POLISH, "all"],
];

/** Runs each pass once on `bytes` bytes, with the run's options { algorithm: "ddmin", splitFactor: 2 }. */
async function runCompiled(passes: Pass[], bytes: number): Promise<void> {
  const options = { algorithm: "ddmin", splitFactor: 2 } as unknown as ResolvedOptions;
  for (const pass of passes) {
    await pass.run({
      current: new Uint8Array(bytes),
      evaluator: undefined as unknown as PassContext["evaluator"],
      options,
      signal: new AbortController().signal,
      emit: () => undefined,
    });
  }
}

/** A pass per phase that records the options it runs with. */
function recorder(seen: [string, Record<string, unknown>][]): (phase: string) => Pass {
  return (phase) => ({
    name: `p:${phase}`,
    run: (context) => {
      seen.push([phase, { ...context.options }]);
      return Promise.resolve({ kind: "done" });
    },
  });
}

test("the default schedule compiles to the old pipeline's passes, order, conditions and options", async () => {
  // A built-in language with identifiers (C), one without (JSON), an ANTLR grammar.
  const languages = [
    { facts: { builtInLanguage: true, names: true }, has: ["all", "names"], count: 11 },
    { facts: { builtInLanguage: true, names: false }, has: ["all", "no names"], count: 10 },
    { facts: { builtInLanguage: false, names: false }, has: ["all"], count: 9 },
  ];
  for (const { facts, has, count } of languages) {
    for (const bytes of [64 * 1024 - 1, 64 * 1024]) {
      for (const algorithmGiven of [false, true]) {
        const seen: [string, Record<string, unknown>][] = [];
        const compiled = compileSchedule(
          forRun(DEFAULT_TREE_SCHEDULE, algorithmGiven),
          recorder(seen),
          facts,
        );
        const passes = compiled.flatMap(({ pass }) => (pass ? [pass] : []));
        await runCompiled(passes, bytes);
        const expected = BEFORE.filter(
          ([phase, , languages]) => has.includes(languages) && (phase !== "biggest" || bytes >= 64 * 1024),
        ).map(([phase, own]): [string, Record<string, unknown>] => [
          phase,
          // --algorithm given: every pass runs with the run's options as they are.
          {
            algorithm: "ddmin",
            splitFactor: 2,
            ...(algorithmGiven ? {} : own === POLISH && facts.builtInLanguage ? POLISH_BUILT_IN : own),
          },
        ]);
        assert.deepEqual(seen, expected, JSON.stringify({ facts, bytes, algorithmGiven }));
        // The pipeline's pass count (the progress line's n) includes biggest whatever the size.
        assert.equal(passes.length, count);
      }
    }
  }
});

test("the schedule is frozen data, and the exported constants come from it", () => {
  assert.ok(Object.isFrozen(DEFAULT_TREE_SCHEDULE));
  assert.ok(
    DEFAULT_TREE_SCHEDULE.every(
      (step) => Object.isFrozen(step) && (step.ddmin === undefined || Object.isFrozen(step.ddmin)),
    ),
  );
  assert.throws(() => {
    (DEFAULT_TREE_SCHEDULE[0] as { phase: string }).phase = "prune";
  }, TypeError);
  assert.deepEqual(DEFAULT_TREE_PHASES, [
    "hidden",
    "chain",
    "biggest",
    "coarse",
    "hoist*",
    "prune+hoist*",
    "token",
    "glyph",
    "blank",
  ]);
  assert.deepEqual(
    atomSchedule("both").map((s) => [s.phase, s.algorithm]),
    [
      ["line", "run"],
      ["char", "run"],
    ],
  );
});

test("the schedule in words names each step, its condition and its algorithm", () => {
  assert.equal(
    describeSchedule(DEFAULT_TREE_SCHEDULE),
    "hidden [adaptive; with --grammar, ddmin for 16 units or fewer, its subsets in rounds of ≤ 16 parts] → " +
      "chain [probdd, p0 learned per pass] → biggest (inputs ≥ 64 KiB) → coarse → " +
      "hoist* [probdd, p0 learned per pass] → " +
      "rename, literal (built-in languages, inputs with names) [adaptive; with --grammar, ddmin for 16 units or fewer, its subsets in rounds of ≤ 16 parts] → " +
      "prune+hoist* [probdd, p0 learned per pass] → token → " +
      "literal (built-in languages, inputs without names) [adaptive; with --grammar, ddmin for 16 units or fewer, its subsets in rounds of ≤ 16 parts] → " +
      "glyph [adaptive, no pairs] → " +
      "blank [adaptive; with --grammar, ddmin for 16 units or fewer, its subsets in rounds of ≤ 16 parts]",
  );
  assert.equal(
    describeSchedule(forRun(DEFAULT_TREE_SCHEDULE, true)),
    "hidden → chain → biggest (inputs ≥ 64 KiB) → coarse → hoist* → rename, literal (built-in languages, inputs with names) → " +
      "prune+hoist* → token → literal (built-in languages, inputs without names) → glyph → blank",
  );
  assert.equal(describeSchedule(atomSchedule("both")), "line → char");
  assert.equal(describeSchedule(atomSchedule("char")), "char");
});

test("the real pipelines: a built-in language, an ANTLR grammar, no grammar, and --phase", async () => {
  const json = await frontEnd("json");
  const language = planPipeline([], "both", json);
  assert.deepEqual(
    language.passes.map((p) => p.name),
    [
      "ddmin:hidden",
      "hdd:chain",
      "hdd:biggest",
      "hdd:coarse",
      "hdd:hoist*",
      "hdd:prune+hoist*",
      "ddmin:token",
      "literal",
      "ddmin:glyph",
      "ddmin:blank",
    ],
  );
  // The planned steps name the same passes, in the same order (the start line and "pass k/n").
  assert.deepEqual(
    language.schedule?.flatMap((s) => (s.pass === undefined ? [] : [s.pass])),
    language.passes.map((p) => p.name),
  );
  // JSON has no identifiers: no rename, and literal after the tokens; C has, and both come before HDDH.
  const why = (plan: typeof language): [string, string | null, string | undefined][] =>
    scheduleRecords(plan.schedule!, 100, () => true)
      .filter((r) => r.phase === "rename" || r.phase === "literal")
      .map((r) => [r.phase, r.pass, r.why]);
  assert.deepEqual(why(language), [
    ["rename", null, "no identifiers in this input"],
    ["literal", null, "no identifiers in this input"],
    ["literal", "literal", undefined],
  ]);
  const c = planPipeline([], "both", await frontEnd("c"));
  assert.deepEqual(c.passes.map((p) => p.name).slice(4, 8), [
    "hdd:hoist*",
    "rename",
    "literal",
    "hdd:prune+hoist*",
  ]);
  assert.deepEqual(why(c), [
    ["rename", "rename", undefined],
    ["literal", "literal", undefined],
    ["literal", null, "this input has identifiers: it ran before prune+hoist*"],
  ]);
  // HTML's names are its scripts': a page with a script has them, one without has none.
  const html = await frontEnd("html");
  const page = (body: string): typeof language =>
    planPipeline([], "both", html, undefined, true, Buffer.from(`<p>x</p>${body}`));
  assert.deepEqual(why(page("<script>let total = 1;</script>")), why(c));
  assert.deepEqual(why(page("<style>.total { color: red }</style>")), why(language));

  const antlr = await AntlrFrontEnd.load({
    grammarFiles: [join(FIXTURES, "grammar", "JSON.g4")],
    cacheDir: false,
  });
  const grammar = planPipeline([], "both", antlr);
  assert.deepEqual(
    grammar.passes.map((p) => p.name),
    DEFAULT_TREE_PHASES.map(
      (phase) => (["hidden", "token", "glyph", "blank"].includes(phase) ? "ddmin:" : "hdd:") + phase,
    ),
  );
  const records = scheduleRecords(grammar.schedule!, 100, (pass) => pass !== "hdd:coarse");
  assert.deepEqual(
    records.map((r) => [r.phase, r.pass, r.status, r.why]),
    [
      ["hidden", "ddmin:hidden", "ran", undefined],
      ["chain", "hdd:chain", "ran", undefined],
      ["biggest", "hdd:biggest", "skipped", "input under 64 KiB"],
      ["coarse", "hdd:coarse", "not run", undefined],
      ["hoist*", "hdd:hoist*", "ran", undefined],
      ["rename", null, "skipped", "not a built-in language"],
      ["literal", null, "skipped", "not a built-in language"],
      ["prune+hoist*", "hdd:prune+hoist*", "ran", undefined],
      ["token", "ddmin:token", "ran", undefined],
      ["literal", null, "skipped", "not a built-in language"],
      ["glyph", "ddmin:glyph", "ran", undefined],
      ["blank", "ddmin:blank", "ran", undefined],
    ],
  );

  for (const atom of ["line", "char", "both"] as const) {
    const text = planPipeline([], atom, undefined);
    assert.deepEqual(
      text.passes.map((p) => p.name),
      atom === "both" ? ["ddmin:line", "ddmin:char"] : [`ddmin:${atom}`],
    );
    assert.deepEqual(
      text.schedule?.map((s) => s.step.phase),
      atom === "both" ? ["line", "char"] : [atom],
    );
  }
  // --phase: the phases named, no schedule.
  const named = planPipeline(["coarse", "token"], "both", json);
  assert.equal(named.schedule, undefined);
  assert.deepEqual(
    buildPipeline(["coarse", "token"], "both", json).map((p) => p.name),
    ["hdd:coarse", "ddmin:token"],
  );
});
