/**
 * The report's pure renderer, fed by the events of a real in-process reduction with a fake clock:
 * one mark per improvement in each chart, placed and coloured by its pass; one table row per pass
 * with the collector's counts; text from the input escaped; the side-by-side comparison bounded.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { reduce } from "../../src/reduce/reduce.js";
import type { ReductionEvent } from "../../src/reduce/events.js";
import { renderReport, REPORT_MARK, type ReportPage } from "../../src/report/html.js";
import { lineCount, ReportRecorder } from "../../src/report/record.js";
import { renderSideBySide, SIDE_LIMITS } from "../../src/report/side-by-side.js";
import { charDiff, diffLines, LCS_CELL_LIMIT } from "../../src/report/diff.js";
import { MARK_LIMIT, renderSizeChart } from "../../src/report/chart.js";

const input = Buffer.from(
  [
    "<script>alert('x')</script>",
    "keep <b>this</b> & that",
    ...Array.from({ length: 20 }, (_, i) => `filler ${i}`),
  ]
    .map((l) => `${l}\n`)
    .join(""),
);
const keeps = (c: Uint8Array): boolean => Buffer.from(c).includes("<b>this</b>");

/** A reduction (lines, then characters) recorded with a clock that advances 10 ms per reading. */
async function recordedRun(): Promise<{ page: ReportPage; events: ReductionEvent[] }> {
  let t = 0;
  const recorder = new ReportRecorder(input, "content", () => (t += 10));
  const events: ReductionEvent[] = [];
  await reduce(input, keeps, {
    jobs: 1,
    onEvent: (e) => {
      events.push(e);
      recorder.listener(e);
    },
  });
  return {
    events,
    page: {
      run: recorder.snapshot(),
      status: "done",
      input: "dir/<in>.txt",
      output: "out.txt",
      command: "./t.sh",
      pipeline: ["ddmin:line", "ddmin:char"],
      options: [["atom", "both"]],
      writtenAt: "2026-01-01T00:00:00.000Z",
    },
  };
}

/** The SVG element with this id. */
function svg(html: string, id: string): string {
  const start = html.indexOf(`<svg id="${id}"`);
  assert.ok(start >= 0, `no chart ${id}`);
  return html.slice(start, html.indexOf("</svg>", start));
}

const marksOf = (chart: string): { cls: string; cx: number; cy: number; title: string }[] =>
  [
    ...chart.matchAll(
      /<circle class="mark (p\d+)" data-pass="\d+" cx="([\d.]+)" cy="([\d.]+)"[^>]*><title>([^<]*)</g,
    ),
  ].map((m) => ({ cls: m[1]!, cx: Number(m[2]), cy: Number(m[3]), title: m[4]! }));

describe("the report page", () => {
  test("has one mark per improvement in each chart, in order, coloured by pass", async () => {
    const { page, events } = await recordedRun();
    const improved = events.filter((e) => e.type === "improved");
    assert.ok(improved.length >= 3, "the run improves several times");
    assert.equal(page.run.improvements.length, improved.length);
    const html = renderReport(page);
    for (const id of ["by-time", "by-tests"]) {
      const marks = marksOf(svg(html, id));
      assert.equal(marks.length, improved.length, id);
      for (let i = 1; i < marks.length; i++) {
        assert.ok(marks[i]!.cx >= marks[i - 1]!.cx, `${id}: x grows`);
        assert.ok(marks[i]!.cy >= marks[i - 1]!.cy, `${id}: the size falls (y grows downwards)`);
      }
      // The pipeline's first pass is colour 0, the second colour 1.
      assert.deepEqual(
        marks.map((m) => m.cls),
        improved.map((e) => (e.pass === "ddmin:line" ? "p0" : "p1")),
      );
    }
    // The tooltips say the pass and the size; the last mark is the result.
    const last = marksOf(svg(html, "by-tests")).at(-1)!;
    assert.match(last.title, new RegExp(`^ddmin:\\w+: ${page.run.best.length} B after \\d+ tests`));
    assert.equal(svg(html, "by-time").match(/data-improvements="(\d+)"/)?.[1], String(improved.length));
  });

  test("puts the improvements at their time and test count", async () => {
    const { page } = await recordedRun();
    const points = page.run.improvements;
    // The fake clock advances on every reading: times strictly grow, tests never fall.
    for (let i = 1; i < points.length; i++) {
      assert.ok(points[i]!.ms > points[i - 1]!.ms);
      assert.ok(points[i]!.tests >= points[i - 1]!.tests);
    }
    assert.equal(points.at(-1)!.bytes, page.run.best.length);
    // Lines are the unit of a text run of several lines, one count per improvement.
    assert.equal(page.run.unit?.name, "lines");
    assert.equal(page.run.unit?.original, 22);
    assert.equal(page.run.unit?.points.at(-1)?.count, lineCount(page.run.best));
  });

  test("has a table row per pass with the collector's counts, and the totals", async () => {
    const { page } = await recordedRun();
    const html = renderReport(page);
    const rows = [...html.matchAll(/<tr data-pass="(\d+)">(.*?)<\/tr>/g)].map((m) =>
      [...m[2]!.matchAll(/<td>(?:<i[^>]*><\/i>)?([^<]*)<\/td>/g)].map((c) => c[1]!),
    );
    assert.equal(rows.length, 2);
    for (const row of rows) {
      const p = page.run.stats.passes[row[0]!]!;
      assert.deepEqual(
        row.slice(1, 4),
        [p.tests, p.improvements, p.bytesRemoved].map((n) => n.toLocaleString("en")),
      );
      assert.equal(row[5], String(p.timeouts));
      assert.equal(row[6], String(p.cacheHits));
    }
    const total = /<tfoot><tr><td>all<\/td><td>([\d,]+)<\/td><td>(\d+)<\/td><td>([\d,]+)<\/td>/.exec(html);
    assert.deepEqual(total?.slice(1), [
      page.run.stats.tests.toLocaleString("en"),
      String(page.run.improvements.length),
      String(input.length - page.run.best.length),
    ]);
  });

  test("escapes the input's text, names and options", async () => {
    const { page } = await recordedRun();
    const html = renderReport(page);
    assert.ok(!html.includes("<script>alert"), "the input's <script> is text");
    assert.ok(html.includes("&lt;script&gt;alert(&#39;x&#39;)") || html.includes("&lt;script&gt;alert('x')"));
    assert.ok(html.includes("keep &lt;b&gt;this&lt;/b&gt; &amp; that"));
    assert.ok(html.includes("whittle report: dir/&lt;in&gt;.txt"));
    assert.ok(!html.includes("<in>"));
    // The page's own script is the only one.
    assert.equal(html.match(/<script>/g)?.length, 1);
    assert.ok(html.includes(REPORT_MARK));
  });

  test("reloads itself only while the run goes on, and shows why a run failed", async () => {
    const { page } = await recordedRun();
    assert.ok(!renderReport(page).includes('http-equiv="refresh"'));
    const live = renderReport({ ...page, status: "running", refreshSeconds: 3 });
    assert.ok(live.includes('<meta http-equiv="refresh" content="3">'));
    const failed = renderReport({ ...page, status: "failed", error: "the test <crashed>" });
    assert.ok(failed.includes('<p class="error">the test &lt;crashed&gt;</p>'));
  });
});

describe("the comparison of the original and the result", () => {
  test("a pure deletion: every result line matched, removed lines marked, long runs folded", () => {
    const a = Array.from({ length: 40 }, (_, i) => `l${i}`);
    const b = ["l3", "l30"];
    const ops = diffLines(a, b);
    assert.deepEqual(
      ops.filter((o) => o.kind === "same"),
      [
        { kind: "same", left: 3, right: 0 },
        { kind: "same", left: 30, right: 1 },
      ],
    );
    assert.equal(ops.filter((o) => o.kind === "removed").length, 38);
    const html = renderSideBySide(Buffer.from(a.join("\n") + "\n"), Buffer.from(b.join("\n") + "\n"));
    assert.equal(html.match(/<tr class="same">/g)?.length, 2);
    assert.match(html, /… 16 more removed lines …/); // l4..l29: 26 lines, 5 shown at each end
    assert.ok(html.includes("<td>l0</td>") && html.includes("<td>l39</td>"), "short runs are shown whole");
    assert.ok(!html.includes("<td>l10</td>"), "the middle of a long run is folded");
  });

  test("the greedy match of a big pair finds every line of a deletion", () => {
    const n = Math.ceil(Math.sqrt(LCS_CELL_LIMIT)) + 10;
    const a = Array.from({ length: n }, (_, i) => `x${i % 50}`);
    const b = a.filter((_, i) => i % 7 === 0);
    const ops = diffLines(a, b);
    assert.equal(ops.filter((o) => o.kind === "same").length, b.length);
    assert.equal(ops.filter((o) => o.kind === "added").length, 0);
  });

  test("a changed line sits beside the line it came from, its removed characters marked", () => {
    assert.deepEqual(charDiff("  f(<a>);", "f(<a>)").left, [
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    const html = renderSideBySide(Buffer.from("int x;\n  f(<a>);\n}\n"), Buffer.from("f(<a>)\n"));
    assert.match(
      html,
      /<tr class="chg"><td class="n">2<\/td><td><mark> {2}<\/mark>f\(&lt;a&gt;\)<mark>;<\/mark><\/td>/,
    );
  });

  test("a huge comparison is cut with a note, and long lines end in …", () => {
    const lines = Array.from(
      { length: SIDE_LIMITS.rows * 2 },
      (_, i) => `${i} ${"y".repeat(i === 0 ? 1000 : 3)}`,
    );
    const text = Buffer.from(lines.join("\n"));
    const html = renderSideBySide(text, text);
    assert.equal(html.match(/<tr /g)?.length, SIDE_LIMITS.rows);
    assert.match(html, /The comparison is cut after 2,500 of its 5,000 rows/);
    assert.ok(html.includes(`${"y".repeat(SIDE_LIMITS.lineChars - 2)}<span class="more">…</span>`));
  });

  test("a chart with more improvements than MARK_LIMIT marks a sample and says so", () => {
    const marks = Array.from({ length: MARK_LIMIT * 2 + 1 }, (_, i) => ({
      x: i,
      bytes: 1e6 - i,
      pass: 0,
      label: "",
    }));
    const html = renderSizeChart({
      id: "c",
      title: "t",
      xLabel: "x",
      xText: String,
      originalBytes: 1e6,
      marks,
      endX: marks.length,
    });
    // One in 3 (indices 0, 3, …, 6000, which is the last): 2,001 marks, no more than the limit.
    assert.equal(html.match(/<circle/g)?.length, 2001);
    assert.ok(2001 <= MARK_LIMIT);
    assert.match(html, /6,001 improvements: one in 3 is marked, and the last/);
  });
});
