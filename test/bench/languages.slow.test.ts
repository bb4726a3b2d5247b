/**
 * The benchmark section `languages` in quick mode, as `node dist/bench/run.js --only languages
 * --quick` runs it (about a minute): the JSON and HTML cases, each reduced by the whittle command with
 * tree-sitter (with and without the syntax filter), the shared ANTLR grammar and line+char ddmin.
 * Runs only when the shared cases are present (next to the repository).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findRepoRoot, sharedRoot } from "../../bench/lib/paths.js";
import type { LanguagesData } from "../../bench/sections/languages.js";
import { scratch } from "../helpers/cli.js";

const repo = findRepoRoot();
const casesDir = join(sharedRoot(repo), "bench", "cases");

test(
  "bench section languages, quick: every run reduces, along the detected language where asked",
  { skip: !existsSync(casesDir) && `${casesDir} not found` },
  async () => {
    const out = scratch("whittle-bench-languages-");
    const child = spawn(
      process.execPath,
      [join(repo, "dist", "bench", "run.js"), "--only", "languages", "--quick", "--out", out],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    assert.equal(code, 0, stderr.slice(-2000));

    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as {
      sections: { languages: { data: LanguagesData } };
    };
    const data = results.sections.languages.data;
    assert.ok(data.cases.length > 0, "no case ran");
    for (const lc of data.cases) {
      const runs = data.runs.filter((r) => r.case === lc.case);
      for (const r of runs) {
        const what = `${lc.case} ${r.config}`;
        assert.equal(r.result, "done", what);
        assert.equal(r.interesting, true, what);
        assert.ok(r.nonWsChars < lc.inputNonWs, what);
        if (r.config.startsWith("tree-sitter")) {
          assert.equal(r.reducedAs, lc.languageTitle, `${what}: ${r.notice}`);
          // The default grammar pipeline: the comments first, then the tree phases.
          assert.deepEqual(
            r.pipeline.slice(0, 2),
            ["ddmin:hidden", "hdd:chain"],
            `${what}: ${r.pipeline.join(", ")}`,
          );
        }
      }
      const configs = runs.map((r) => r.config);
      const expected = ["tree-sitter", "tree-sitter-no-filter", "antlr", "line-char"];
      assert.deepEqual(configs, lc.grammar === null ? expected.filter((c) => c !== "antlr") : expected);
      assert.equal(runs.find((r) => r.config === "tree-sitter-no-filter")!.syntaxSkips, 0);
      assert.ok(!runs.find((r) => r.config === "line-char")!.pipeline.some((p) => p.startsWith("hdd:")));
    }
    const report = readFileSync(join(out, "report.md"), "utf8");
    assert.match(report, /### The syntax filter/);
    if (data.cases.some((lc) => lc.grammar === null)) assert.match(report, /no grammar/);
  },
);
