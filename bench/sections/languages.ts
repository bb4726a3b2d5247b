/**
 * Section `languages` (issue 10): the built-in tree-sitter languages on the shared JSON, C,
 * JavaScript and HTML cases, against the ANTLR front-end with the shared grammars, against line and
 * character ddmin, and against the anchors (Picire, Picireny, C-Vise: `../shared/bench/anchors.md`).
 *
 * Per case, up to four runs of the whittle command (whittle-cli.ts: `-j 1`, the real oracle.sh, a
 * wall-clock budget):
 * 1. tree-sitter, the default pipeline, the language chosen by whittle from the file's extension —
 *    checked against whittle's own notice on stderr. Where tree-sitter finds a syntax error in the
 *    original, whittle alone would reduce lines and characters instead (run 4), so the run adds
 *    `--allow-syntax-errors`, which reduces along the syntax all the same (the README's advice);
 * 2. the same with `--no-syntax-filter`: the candidates run 1 kept from the oracle (syntax skips)
 *    against the oracle runs the same pipeline makes without the filter;
 * 3. ANTLR with the case's shared grammar, the default pipeline (where the filter is gated: on while
 *    a check costs less than the tests it saves); no run where there is no grammar (HTML);
 * 4. ddmin over lines, then characters (`--language none`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { detectLanguage, TreeSitterFrontEnd } from "../../src/grammar/tree-sitter/index.js";
import { languageSpec } from "../../src/grammar/tree-sitter/languages.js";
import { nonWhitespaceChars, parseAnchors, smallestOf, type AnchorRow } from "../lib/anchors.js";
import type { BenchCase } from "../lib/cases.js";
import type { BenchContext, Section } from "../lib/context.js";
import { bytes, ms, table } from "../lib/format.js";
import {
  CASE_GRAMMARS,
  caseGrammarArgs,
  GRAMMARS,
  grammarLoader,
  grammarsDir,
  type GrammarId,
} from "../lib/grammars.js";
import { progress } from "../lib/log.js";
import {
  MINUTE,
  oddRunNotes,
  oracleCell,
  rssCell,
  runStatus,
  runSummary,
  runWhittle,
  TEST_TIMEOUT_S,
  type WhittleRun,
} from "../lib/whittle-cli.js";

type ConfigId = "tree-sitter" | "tree-sitter-no-filter" | "antlr" | "line-char";

const CONFIGS: readonly { readonly id: ConfigId; readonly label: string }[] = [
  { id: "tree-sitter", label: "tree-sitter, default pipeline" },
  { id: "tree-sitter-no-filter", label: "tree-sitter, --no-syntax-filter" },
  { id: "antlr", label: "ANTLR (shared grammar), default pipeline" },
  { id: "line-char", label: "ddmin lines, then chars (--language none)" },
];

interface CasePlan {
  readonly name: string;
  readonly budgetMs: number;
}

/** Quick: the JSON and HTML cases (node and grep oracles, seconds a run). */
function casePlans(quick: boolean): CasePlan[] {
  const plan = (name: string, minutes: number): CasePlan => ({ name, budgetMs: minutes * MINUTE });
  const small = ["json-obj-arr-87", "json-invalid-escape", "json-extra-comma", "mozilla-select-html"];
  if (quick) return small.map((name) => plan(name, 2));
  return [
    ...small.map((name) => plan(name, 10)),
    ...["zeller-bug-c", "cvise-blocksort-c", "creduce-file2-c", "hello-world-big-c"].map((name) =>
      plan(name, 10),
    ),
    // About 130 KB each, a node run per test: what the budget reaches is the figure.
    plan("js-esquery-syntax-error", 7),
    plan("js-yaml-flow-error", 7),
  ];
}

export interface LanguageCase {
  case: string;
  inputBytes: number;
  inputNonWs: number;
  /** The built-in language of the input's file name (whittle's own detection), or null. */
  language: string | null;
  /** Its title, as whittle names it in its notice ("JSON", "C"…). */
  languageTitle: string | null;
  /** tree-sitter's description of the syntax errors in the original, or null when it has none. */
  treeSitterErrors: string | null;
  /** The shared ANTLR grammar, or null (no grammar: HTML). */
  grammar: GrammarId | null;
  /** The grammar parses the input only with error recovery (--allow-syntax-errors). */
  antlrRecovery: boolean;
  budgetMs: number;
}

export interface LanguageRun extends WhittleRun {
  config: ConfigId;
  /** With tree-sitter: whittle's notice of how it reduces the input (the first such line on stderr). */
  notice: string | null;
  /** With tree-sitter: the language whittle said it reduces along (null: none, or it reduced text). */
  reducedAs: string | null;
}

export interface AnchorsOfCase {
  case: string;
  picire: AnchorRow | null;
  picireny: AnchorRow | null;
  cvise: AnchorRow | null;
  /** The smallest row of any reducer. */
  smallest: AnchorRow | null;
}

export interface LanguagesData {
  cases: LanguageCase[];
  runs: LanguageRun[];
  anchors: AnchorsOfCase[];
  anchorsNote: string | null;
  notes: string[];
}

/** whittle's notice line about the input's language, and the language it says it reduces along. */
function readNotice(stderr: string): { notice: string | null; reducedAs: string | null } {
  const line = stderr
    .split("\n")
    .map((l) => l.replace(/^whittle: /, ""))
    .find((l) => / by its (extension|#! line)|reducing lines and characters/.test(l));
  if (line === undefined) return { notice: null, reducedAs: null };
  const along = / is (.+?) by its (?:extension|#! line): reducing along its syntax/.exec(line);
  return { notice: line, reducedAs: along ? along[1]! : null };
}

async function describeCase(ctx: BenchContext, c: BenchCase, plan: CasePlan): Promise<LanguageCase> {
  const found = detectLanguage(c.inputName, c.input);
  let treeSitterErrors: string | null = null;
  if (found !== undefined) {
    const frontEnd = await TreeSitterFrontEnd.load({ language: found.language, fileName: c.inputName });
    treeSitterErrors = frontEnd.describeErrors(c.input)?.text ?? null;
  }
  const entry = existsSync(grammarsDir(ctx)) ? CASE_GRAMMARS[c.name] : undefined;
  return {
    case: c.name,
    inputBytes: c.input.length,
    inputNonWs: nonWhitespaceChars(c.input),
    language: found?.language ?? null,
    languageTitle: found ? languageSpec(found.language).title : null,
    treeSitterErrors,
    grammar: entry?.grammar ?? null,
    antlrRecovery: entry?.recovery ?? false,
    budgetMs: plan.budgetMs,
  };
}

/** The whittle options of a configuration on a case; undefined when it does not apply (no grammar). */
function configArgs(ctx: BenchContext, id: ConfigId, lc: LanguageCase): string[] | undefined {
  // Only when tree-sitter cannot parse the original: without it whittle would reduce text.
  const recovery = lc.treeSitterErrors === null ? [] : ["--allow-syntax-errors"];
  switch (id) {
    case "tree-sitter":
      return recovery;
    case "tree-sitter-no-filter":
      return [...recovery, "--no-syntax-filter"];
    case "antlr":
      return lc.grammar === null ? undefined : caseGrammarArgs(ctx, lc.case);
    case "line-char":
      return ["--language", "none"];
  }
}

async function run(ctx: BenchContext): Promise<LanguagesData> {
  const notes: string[] = [];
  const plans = casePlans(ctx.quick).filter((p) => ctx.sharedCase(p.name));
  if (plans.length === 0) {
    notes.push(`none of the cases found under ${join(ctx.sharedDir, "bench", "cases")}: section skipped`);
    return { cases: [], runs: [], anchors: [], anchorsNote: null, notes };
  }
  if (!existsSync(grammarsDir(ctx))) notes.push(`${grammarsDir(ctx)} not found: no ANTLR runs`);
  const loadGrammar = grammarLoader(ctx);
  const cases: LanguageCase[] = [];
  const runs: LanguageRun[] = [];
  for (const plan of plans) {
    const c = ctx.sharedCase(plan.name)!;
    const lc = await describeCase(ctx, c, plan);
    cases.push(lc);
    if (lc.grammar !== null) await loadGrammar(GRAMMARS[lc.grammar]);
    for (const config of CONFIGS) {
      const args = configArgs(ctx, config.id, lc);
      if (args === undefined) continue;
      const treeSitter = config.id.startsWith("tree-sitter");
      const r = await runWhittle(ctx, {
        section: "languages",
        caseName: c.name,
        variant: config.id,
        label: config.label,
        input: join(ctx.sharedDir, "bench", "cases", c.name, c.inputName),
        inputName: c.inputName,
        oracle: c.oraclePath!,
        args,
        budgetMs: plan.budgetMs,
        dir: join(ctx.tmpDir, "languages", c.name, config.id),
        // whittle's notice says which language it chose.
        quiet: !treeSitter,
      });
      const { notice, reducedAs } = treeSitter ? readNotice(r.stderr) : { notice: null, reducedAs: null };
      runs.push({ ...r, config: config.id, notice, reducedAs });
      const as = treeSitter ? ` [${reducedAs ?? "NOT along a language"}]` : "";
      progress(`languages: ${c.name} ${config.id}${as}: ${runSummary(r)}, ${r.syntaxSkips} syntax skips`);
    }
  }

  const anchorsPath = join(ctx.sharedDir, "bench", "anchors.md");
  const anchors: AnchorsOfCase[] = [];
  let anchorsNote: string | null = null;
  if (existsSync(anchorsPath)) {
    const byCase = parseAnchors(readFileSync(anchorsPath, "utf8"));
    for (const lc of cases) {
      const rows = byCase.get(lc.case) ?? [];
      anchors.push({
        case: lc.case,
        picire: smallestOf(rows, "Picire ") ?? null,
        picireny: smallestOf(rows, "Picireny") ?? null,
        cvise: smallestOf(rows, "C-Vise") ?? null,
        smallest: smallestOf(rows, "") ?? null,
      });
    }
  } else anchorsNote = `${anchorsPath} not found`;
  return { cases, runs, anchors, anchorsNote, notes };
}

/** 1234 → "1,234" */
function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** "size / tests", marked when the run stopped at its budget or its result is not interesting. */
function sizeTests(r: LanguageRun | undefined): string {
  if (r === undefined) return "–";
  const marks = `${r.stoppedAtBudget ? " ⏱" : ""}${r.interesting === false ? " ✗" : ""}`;
  if (r.result !== "done" && !r.stoppedAtBudget) return `${r.result}${marks}`;
  return `${count(r.nonWsChars)} / ${count(r.tests)}${marks}`;
}

function anchorCell(a: AnchorRow | null): string {
  return a ? `${a.nonWsChars} / ${count(a.oracleRuns)}` : "–";
}

function render(data: LanguagesData): string {
  if (data.cases.length === 0) return data.notes.map((n) => `- ${n}\n`).join("");
  const find = (c: string, id: ConfigId): LanguageRun | undefined =>
    data.runs.find((r) => r.case === c && r.config === id);
  const parts: string[] = [
    `Each configuration is one run of the whittle command (\`-j 1\`, \`--timeout ${TEST_TIMEOUT_S}\`, the case's real \`oracle.sh\`; ANTLR grammars from a warm grammar cache), so test counts are deterministic and comparable with the anchors' sequential tools. Configurations: **tree-sitter** — whittle's default for the file (language from the extension, default pipeline, syntax filter on), checked against whittle's notice; **no filter** — the same with \`--no-syntax-filter\`; **ANTLR** — the default pipeline with the shared grammar (its syntax filter gated); **line+char** — ddmin over lines then characters (\`--language none\`). Sizes are non-whitespace characters (the papers' metric); wall time is the whittle process from spawn to exit; peak RSS is the whittle process's own (getrusage, its tests excluded). Every result is given to \`oracle.sh\` once more.`,
    "",
    table(
      [
        "case",
        "input",
        "language (by extension)",
        "tree-sitter on the original",
        "ANTLR grammar",
        "budget per run",
      ],
      data.cases.map((lc) => [
        lc.case,
        `${bytes(lc.inputBytes)}, ${count(lc.inputNonWs)} non-ws chars`,
        lc.language ?? "none",
        lc.treeSitterErrors === null
          ? "parses"
          : `${lc.treeSitterErrors.replace(/^[^:]*:/, "line ")}: runs with --allow-syntax-errors (without it whittle reduces text: the line+char row)`,
        lc.grammar === null
          ? "no grammar"
          : `${lc.grammar}${lc.antlrRecovery ? " (with --allow-syntax-errors)" : ""}`,
        ms(lc.budgetMs),
      ]),
    ),
    "### Sizes and tests\n",
    "Non-ws chars / tests (oracle runs). ⏱ stopped at the budget (whittle got SIGINT and wrote its best result); ✗ `oracle.sh` refuses the result.",
    "",
    table(
      [
        "case (input non-ws)",
        "tree-sitter",
        "no filter",
        "ANTLR",
        "line+char",
        "smallest anchor",
        "tree-sitter ≤ smallest anchor",
      ],
      data.cases.map((lc) => {
        const ts = find(lc.case, "tree-sitter");
        const a = data.anchors.find((x) => x.case === lc.case)?.smallest ?? null;
        return [
          `${lc.case} (${count(lc.inputNonWs)})`,
          sizeTests(ts),
          sizeTests(find(lc.case, "tree-sitter-no-filter")),
          lc.grammar === null ? "no grammar" : sizeTests(find(lc.case, "antlr")),
          sizeTests(find(lc.case, "line-char")),
          a ? `${anchorCell(a)} (${a.reducer})` : "–",
          a === null || ts === undefined
            ? "no anchor"
            : ts.nonWsChars <= a.nonWsChars
              ? `yes (${ts.nonWsChars} ≤ ${a.nonWsChars})`
              : `**no** (${ts.nonWsChars} > ${a.nonWsChars})`,
        ];
      }),
    ),
    "### The syntax filter\n",
    "Skips: candidates the filter kept from the oracle (they had syntax errors the best so far did not). Saved: the oracle runs of the same pipeline without the filter minus those with it — an estimate of what the skips saved, exact only where both runs take the same path (same sizes; a skipped candidate can be one the oracle would have accepted, which changes the path). ANTLR: skips of its gated filter.",
    "",
    table(
      [
        "case",
        "skips",
        "tests with filter",
        "tests without",
        "saved",
        "size with / without",
        "wall with / without",
        "ANTLR skips",
      ],
      data.cases.map((lc) => {
        const on = find(lc.case, "tree-sitter");
        const off = find(lc.case, "tree-sitter-no-filter");
        const antlr = find(lc.case, "antlr");
        const stopped = on?.stoppedAtBudget || off?.stoppedAtBudget ? " ⏱" : "";
        return [
          lc.case,
          on ? count(on.syntaxSkips) : "–",
          on ? count(on.tests) : "–",
          off ? count(off.tests) : "–",
          on && off ? `${count(off.tests - on.tests)}${stopped}` : "–",
          on && off ? `${count(on.nonWsChars)} / ${count(off.nonWsChars)}` : "–",
          on && off ? `${ms(on.wallMs)} / ${ms(off.wallMs)}` : "–",
          lc.grammar === null ? "no grammar" : antlr ? count(antlr.syntaxSkips) : "–",
        ];
      }),
    ),
    "### Against the anchors\n",
  ];
  if (data.anchorsNote) parts.push(`Skipped: ${data.anchorsNote}.`, "");
  else
    parts.push(
      "Non-ws chars / oracle runs of the smallest result of each tool (which of its runs in parentheses).",
      "",
      table(
        ["case", "tree-sitter", "Picire (best)", "Picireny (best)", "C-Vise", "smallest anchor"],
        data.anchors.map((a) => [
          a.case,
          sizeTests(find(a.case, "tree-sitter")),
          a.picire ? `${anchorCell(a.picire)} (${a.picire.reducer.replace("Picire 21.8, ", "")})` : "–",
          a.picireny ? `${anchorCell(a.picireny)} (${a.picireny.reducer.replace("Picireny ", "")})` : "–",
          anchorCell(a.cvise),
          a.smallest ? `${anchorCell(a.smallest)} (${a.smallest.reducer})` : "–",
        ]),
      ),
    );

  for (const lc of data.cases) {
    const rows = data.runs.filter((r) => r.case === lc.case);
    parts.push(
      `### ${lc.case}\n`,
      table(
        [
          "configuration",
          "reduced as",
          "non-ws chars (bytes)",
          "tests",
          "syntax skips",
          "cache hits",
          "wall",
          "peak RSS",
          "status",
          "oracle.sh on result",
        ],
        rows.map((r) => [
          r.label,
          r.config.startsWith("tree-sitter")
            ? (r.reducedAs ?? `**not along a language**${r.notice ? ` (${r.notice})` : ""}`)
            : r.config === "antlr"
              ? `ANTLR ${lc.grammar}`
              : "text",
          `${count(r.nonWsChars)} (${count(r.outputBytes)})`,
          count(r.tests),
          count(r.syntaxSkips),
          count(r.cacheHits),
          ms(r.wallMs),
          rssCell(r),
          runStatus(r),
          oracleCell(r),
        ]),
      ),
    );
    parts.push(...oddRunNotes(rows));
    const ts = rows.find((r) => r.config === "tree-sitter");
    if (ts?.reducedAs != null && ts.reducedAs !== lc.languageTitle)
      parts.push(`- **whittle reduced it as ${ts.reducedAs}, not ${lc.languageTitle}.**`, "");
    parts.push(
      "Tests per pass:",
      "",
      ...rows.map(
        (r) =>
          `- ${r.label}: ${Object.entries(r.passes)
            .map(([p, n]) => `${p} ${n}`)
            .join(", ")}`,
      ),
      "",
    );
  }
  if (data.notes.length) parts.push(...data.notes.map((n) => `- ${n}`), "");
  return parts.join("\n");
}

export const languagesSection: Section<LanguagesData> = {
  id: "languages",
  title: "Built-in languages: tree-sitter against ANTLR and line+char ddmin",
  run,
  render,
};
