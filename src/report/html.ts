import { PALETTE, renderSizeChart, type ChartMark } from "./chart.js";
import type { ReportRun } from "./record.js";
import { renderSideBySide } from "./side-by-side.js";
import { escapeHtml, formatMs, formatSize } from "./text.js";

/** How the run stands: under way, or how it ended. */
export type ReportStatus = "running" | "done" | "interrupted" | "limit" | "failed" | "not-interesting";

/** Everything on the page; rendering it is pure (no clock, no files). */
export interface ReportPage {
  readonly run: ReportRun;
  readonly status: ReportStatus;
  /** What went wrong, when the run failed. */
  readonly error?: string;
  readonly input: string;
  readonly output: string;
  readonly command: string;
  readonly pipeline: readonly string[];
  /** The options of the run, by name, as shown. */
  readonly options: readonly (readonly [string, string])[];
  /** When the page was written (ISO 8601), shown as is. */
  readonly writtenAt: string;
  /** While running: the page reloads itself this often (seconds). */
  readonly refreshSeconds?: number;
}

/** The mark on the page by which whittle knows a report it may overwrite (see mayHoldReport). */
export const REPORT_MARK = '<meta name="generator" content="whittle report">';

const STATUS_TEXT: Record<ReportStatus, string> = {
  running: "running",
  done: "done",
  interrupted: "interrupted: the result is the best found before the stop",
  limit: "stopped by --max-time or --max-tests: the result is the best found before the limit",
  failed: "failed: the result is the best found before the failure",
  "not-interesting": "not reduced: the original is not interesting",
};

/** The index of each pass: the pipeline's order, then any other pass as it first appears. */
function passIndex(page: ReportPage): Map<string, number> {
  const index = new Map<string, number>();
  for (const name of page.pipeline) if (!index.has(name)) index.set(name, index.size);
  for (const p of page.run.improvements) if (!index.has(p.pass)) index.set(p.pass, index.size);
  for (const name of Object.keys(page.run.stats.passes)) if (!index.has(name)) index.set(name, index.size);
  return index;
}

const num = (n: number): string => n.toLocaleString("en");

function summary(page: ReportPage): string {
  const { run } = page;
  const before = run.original.length;
  const after = run.best.length;
  const saved = before === 0 ? 0 : 100 * (1 - after / before);
  const s = run.stats;
  const facts = [
    `${formatSize(before)} → ${formatSize(after)} (${saved.toFixed(1)}% smaller)`,
    `${num(run.improvements.length)} improvements`,
    `${num(s.tests)} tests`,
    `${num(s.cacheHits)} cache hits`,
    ...(s.syntaxSkips ? [`${num(s.syntaxSkips)} syntax skips`] : []),
    ...(s.timeouts ? [`${num(s.timeouts)} timeouts`] : []),
    ...(s.timeoutSkips ? [`${num(s.timeoutSkips)} taken for timeouts untested`] : []),
    `${formatMs(run.elapsedMs)}`,
  ];
  const live =
    page.refreshSeconds !== undefined
      ? ` This page is rewritten while whittle runs and reloads itself every ${page.refreshSeconds} s.`
      : "";
  return (
    `<p class="status ${page.status}">${escapeHtml(STATUS_TEXT[page.status])}</p>` +
    (page.error !== undefined ? `<p class="error">${escapeHtml(page.error)}</p>` : "") +
    `<p>${facts.map(escapeHtml).join(" · ")}</p>` +
    `<p class="note">Written ${escapeHtml(page.writtenAt)} by whittle.${live}</p>`
  );
}

function charts(page: ReportPage, index: Map<string, number>): string {
  const { run } = page;
  const marks = (x: (p: ReportRun["improvements"][number]) => number): ChartMark[] =>
    run.improvements.map((p) => ({
      x: x(p),
      bytes: p.bytes,
      pass: index.get(p.pass) ?? 0,
      label: `${p.pass}: ${formatSize(p.bytes)} after ${num(p.tests)} tests, at ${formatMs(p.ms)}`,
    }));
  const unit = run.unit;
  const legend = [...index.keys()]
    .filter((name) => run.improvements.some((p) => p.pass === name))
    .map((name) => `<span><i class="sw p${index.get(name)! % PALETTE.length}"></i>${escapeHtml(name)}</span>`)
    .join("");
  const unitLegend = unit ? `<span><i class="sw dashed"></i>${escapeHtml(unit.name)}</span>` : "";
  return (
    `<div class="legend"><span><i class="sw solid"></i>bytes</span>${unitLegend}${legend}</div>` +
    renderSizeChart({
      id: "by-time",
      title: "Size over time",
      xLabel: "seconds since whittle started",
      xText: (s) => `${Math.round(s * 1000) / 1000}`,
      originalBytes: run.original.length,
      marks: marks((p) => p.ms / 1000),
      endX: run.elapsedMs / 1000,
      ...(unit
        ? { unit: { ...unit, points: unit.points.map((p) => ({ x: p.ms / 1000, count: p.count })) } }
        : {}),
    }) +
    renderSizeChart({
      id: "by-tests",
      title: "Size over tests",
      xLabel: "tests run",
      xText: (t) => num(Math.round(t)),
      originalBytes: run.original.length,
      marks: marks((p) => p.tests),
      endX: run.stats.tests,
      ...(unit
        ? { unit: { ...unit, points: unit.points.map((p) => ({ x: p.tests, count: p.count })) } }
        : {}),
    })
  );
}

/** One row per pass that ran: what it cost and what it removed; then the totals. */
function passTable(page: ReportPage, index: Map<string, number>): string {
  const s = page.run.stats;
  const rows = [...index.keys()]
    .filter((name) => s.passes[name] !== undefined)
    .map((name) => {
      const p = s.passes[name]!;
      const i = index.get(name)!;
      return (
        `<tr data-pass="${i}"><td><i class="sw p${i % PALETTE.length}"></i>${escapeHtml(name)}</td>` +
        `<td>${num(p.tests)}</td><td>${num(p.improvements)}</td><td>${num(p.bytesRemoved)}</td>` +
        `<td>${formatMs(p.ms)}</td><td>${num(p.timeouts)}${p.timeouts ? ` (${formatMs(p.timeoutMs)})` : ""}` +
        `${p.timeoutSkips ? ` + ${num(p.timeoutSkips)} untested` : ""}</td>` +
        `<td>${num(p.cacheHits)}</td><td>${num(p.syntaxSkips)}</td></tr>`
      );
    });
  const removed = s.inputBytes - page.run.best.length;
  const improvements = Object.values(s.passes).reduce((sum, p) => sum + p.improvements, 0);
  return (
    `<table class="passes"><thead><tr><th>pass</th><th>tests</th><th>improvements</th><th>bytes removed</th>` +
    `<th>time</th><th>timeouts</th><th>cache hits</th><th>syntax skips</th></tr></thead><tbody>${rows.join("")}</tbody>` +
    `<tfoot><tr><td>all</td><td>${num(s.tests)}</td><td>${num(improvements)}</td><td>${num(removed)}</td>` +
    `<td>${formatMs(page.run.elapsedMs)}</td><td>${num(s.timeouts)}</td><td>${num(s.cacheHits)}</td><td>${num(s.syntaxSkips)}</td></tr></tfoot></table>`
  );
}

function optionsTable(page: ReportPage): string {
  const rows: (readonly [string, string])[] = [
    ["input", page.input],
    ["output", page.output],
    ["test", page.command],
    ["pipeline", page.pipeline.join(", ")],
    ...page.options,
  ];
  return `<table class="options"><tbody>${rows
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td><code>${escapeHtml(v)}</code></td></tr>`)
    .join("")}</tbody></table>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
.note{color:#666;font-size:12px}.error{color:#b00020}
.status{font-weight:600}.status.running{color:#1f77b4}.status.done{color:#2ca02c}
.status.interrupted,.status.limit,.status.failed,.status.not-interesting{color:#b00020}
figure{margin:12px 0}figcaption{font-weight:600}
svg.chart{width:100%;height:auto;max-width:900px;font-size:11px}
.grid{stroke:#eee}.axis{stroke:#888}.tick{fill:#555}.label{fill:#333;font-size:12px}.unit{fill:#777}
.size-line{fill:none;stroke:#222;stroke-width:1.5}.unit-line{fill:none;stroke:#777;stroke-width:1.2;stroke-dasharray:5 4}
circle.mark{stroke:#fff;stroke-width:1}body.hl circle.mark{opacity:.12}body.hl circle.mark.on{opacity:1}
.legend span{margin-right:14px;white-space:nowrap}
.sw{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:5px;vertical-align:-1px}
.sw.solid{border-radius:0;height:2px;width:16px;background:#222;vertical-align:3px}
.sw.dashed{border-radius:0;height:0;width:16px;border-top:2px dashed #777;vertical-align:3px}
table{border-collapse:collapse}th,td{padding:3px 8px;text-align:left;vertical-align:top}
table.passes td:not(:first-child),table.passes th:not(:first-child){text-align:right}
table.passes tbody tr:hover{background:#f3f3f3}table.passes tfoot td{border-top:1px solid #aaa;font-weight:600}
table.options th{font-weight:normal;color:#555}
table.diff{width:100%;table-layout:fixed;font:12px/1.35 ui-monospace,monospace}
table.diff col.n{width:48px}table.diff td{white-space:pre-wrap;word-break:break-all;padding:0 6px}
table.diff td.n{color:#999;text-align:right;user-select:none}
tr.del td:nth-child(2){background:#fde8e8}tr.add td:nth-child(4){background:#e6f6e6}
tr.chg td:nth-child(2){background:#fdf3e8}tr.chg td:nth-child(4){background:#eef6ee}
tr.chg mark{background:#f7c08a}tr.fold td{color:#888;text-align:center;background:#f6f6f6}
.more{color:#999}
${PALETTE.map((c, i) => `.p${i}{fill:${c};background:${c}}`).join("")}
`;

/*
 * The page's only script: hovering a pass's row brings out its marks; then it records that it ran
 * and how many marks the first chart holds (data-rendered, data-marks on <html>), for a browser test.
 */
const SCRIPT = `(function(){
var root=document.documentElement,body=document.body;
document.querySelectorAll("table.passes tr[data-pass]").forEach(function(row){
row.addEventListener("mouseenter",function(){
document.querySelectorAll("circle.mark").forEach(function(m){m.classList.toggle("on",m.getAttribute("data-pass")===row.getAttribute("data-pass"))});
body.classList.add("hl")});
row.addEventListener("mouseleave",function(){body.classList.remove("hl")})});
var chart=document.getElementById("by-time");
root.setAttribute("data-marks",String(chart?chart.querySelectorAll("circle.mark").length:0));
root.setAttribute("data-rendered","yes")})();`;

/** The whole report: one self-contained HTML page (inline CSS, SVG and script; nothing fetched). */
export function renderReport(page: ReportPage): string {
  const index = passIndex(page);
  const refresh =
    page.refreshSeconds !== undefined ? `<meta http-equiv="refresh" content="${page.refreshSeconds}">` : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">${REPORT_MARK}${refresh}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>whittle: ${escapeHtml(page.input)}</title><style>${STYLE}</style></head>
<body><h1>whittle report: ${escapeHtml(page.input)}</h1>
${summary(page)}
<h2>Size</h2>
${charts(page, index)}
<h2>Passes</h2>
${passTable(page, index)}
<h2>Original and result</h2>
${renderSideBySide(page.run.original, page.run.best)}
<h2>Options</h2>
${optionsTable(page)}
<script>${SCRIPT}</script>
</body></html>
`;
}
