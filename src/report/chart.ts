import { escapeHtml, formatSize } from "./text.js";

/** One improvement on a chart: its x (seconds or tests), its new size, and its pass's index. */
export interface ChartMark {
  readonly x: number;
  readonly bytes: number;
  readonly pass: number;
  /** The tooltip. */
  readonly label: string;
}

export interface SizeChart {
  readonly id: string;
  readonly title: string;
  readonly xLabel: string;
  /** How an x value is written on the axis. */
  readonly xText: (x: number) => string;
  readonly originalBytes: number;
  readonly marks: readonly ChartMark[];
  /** Where the line ends: now, or the end of the run. */
  readonly endX: number;
  /** The run's own unit, drawn dashed against the right-hand axis. */
  readonly unit?: {
    readonly name: string;
    readonly original: number;
    readonly points: readonly { readonly x: number; readonly count: number }[];
  };
}

/** Above this many improvements, a chart marks an even sample of them (and says so). */
export const MARK_LIMIT = 3000;

const W = 800;
const H = 300;
const LEFT = 78;
const RIGHT = 78;
const TOP = 16;
const BOTTOM = 44;

const n1 = (v: number): string => (Math.round(v * 10) / 10).toString();

/** 1, 2 or 5 times a power of ten, so that about `count` steps cover `max`. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

/**
 * The y scale, as a share of the original: linear, or logarithmic when the run took the size below
 * 2% of the original (a linear axis would squeeze the end of the run into its bottom pixels).
 */
function yScale(shares: readonly number[]): { y: (share: number) => number; ticks: number[]; log: boolean } {
  const low = TOP + (H - TOP - BOTTOM);
  const positive = shares.filter((s) => s > 0);
  const least = positive.length > 0 ? Math.min(...positive) : 1;
  const hasZero = shares.some((s) => s <= 0);
  if (least >= 0.02) {
    return { y: (s) => low - s * (low - TOP), ticks: [0, 0.25, 0.5, 0.75, 1], log: false };
  }
  // Decades from 1 down to the smallest share; an empty input sits one decade further down.
  const floorExp = Math.floor(Math.log10(least)) - (hasZero ? 1 : 0);
  const y = (s: number): number => {
    const e = s > 0 ? Math.max(Math.log10(s), floorExp) : floorExp;
    return low - ((e - floorExp) / -floorExp) * (low - TOP);
  };
  const ticks: number[] = [];
  const every = Math.ceil(-floorExp / 6);
  for (let e = 0; e >= floorExp; e -= every) ticks.push(10 ** e);
  return { y, ticks, log: true };
}

/** A chart of the size over x: a step line, a mark per improvement coloured by pass, axes. */
export function renderSizeChart(c: SizeChart): string {
  if (c.originalBytes === 0) return `<p class="note">The original is empty: nothing to chart.</p>`;
  const unit = c.unit !== undefined && c.unit.original > 0 ? c.unit : undefined;
  const shares = [1, ...c.marks.map((m) => m.bytes / c.originalBytes)];
  if (unit) shares.push(...unit.points.map((p) => p.count / unit.original));
  const { y, ticks, log } = yScale(shares);
  const xMax = Math.max(c.endX, ...c.marks.map((m) => m.x), ...(unit?.points.map((p) => p.x) ?? []), 1e-9);
  const right = W - RIGHT;
  const x = (v: number): number => LEFT + (v / xMax) * (right - LEFT);
  const bottom = H - BOTTOM;
  const parts: string[] = [];

  // Axes, grid and their labels.
  for (const t of ticks) {
    const ty = n1(y(t));
    parts.push(`<line class="grid" x1="${LEFT}" x2="${right}" y1="${ty}" y2="${ty}"/>`);
    parts.push(
      `<text class="tick" x="${LEFT - 6}" y="${ty}" text-anchor="end" dy="4">${formatSize(t * c.originalBytes)}</text>`,
    );
    if (unit)
      parts.push(
        `<text class="tick unit" x="${right + 6}" y="${ty}" dy="4">${Math.round(t * unit.original).toLocaleString("en")}</text>`,
      );
  }
  const step = niceStep(xMax, 6);
  for (let i = 0; i * step <= xMax * (1 + 1e-9); i++) {
    const t = i * step;
    const tx = n1(x(t));
    parts.push(`<line class="grid" x1="${tx}" x2="${tx}" y1="${TOP}" y2="${bottom}"/>`);
    parts.push(
      `<text class="tick" x="${tx}" y="${bottom + 16}" text-anchor="middle">${escapeHtml(c.xText(t))}</text>`,
    );
  }
  parts.push(`<line class="axis" x1="${LEFT}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`);
  parts.push(`<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${bottom}"/>`);
  parts.push(
    `<text class="label" x="${(LEFT + right) / 2}" y="${H - 6}" text-anchor="middle">${escapeHtml(c.xLabel)}</text>`,
  );
  parts.push(
    `<text class="label" transform="translate(14 ${(TOP + bottom) / 2}) rotate(-90)" text-anchor="middle">bytes${log ? " (log scale)" : ""}</text>`,
  );
  if (unit)
    parts.push(
      `<text class="label unit" transform="translate(${W - 10} ${(TOP + bottom) / 2}) rotate(90)" text-anchor="middle">${escapeHtml(unit.name)}</text>`,
    );

  // The unit's line, dashed, from its first count.
  if (unit && unit.points.length > 0) {
    let d = `M${n1(x(0))} ${n1(y(1))}`;
    for (const p of unit.points) d += `H${n1(x(p.x))}V${n1(y(p.count / unit.original))}`;
    d += `H${n1(x(xMax))}`;
    parts.push(`<path class="unit-line" d="${d}"/>`);
  }
  // The size: a step down at each improvement, level in between.
  let d = `M${n1(x(0))} ${n1(y(1))}`;
  for (const m of c.marks) d += `H${n1(x(m.x))}V${n1(y(m.bytes / c.originalBytes))}`;
  d += `H${n1(x(xMax))}`;
  parts.push(`<path class="size-line" d="${d}"/>`);

  const every = Math.ceil(c.marks.length / MARK_LIMIT);
  c.marks.forEach((m, i) => {
    if (i % every !== 0 && i !== c.marks.length - 1) return;
    parts.push(
      `<circle class="mark p${m.pass % PALETTE.length}" data-pass="${m.pass}" cx="${n1(x(m.x))}" cy="${n1(y(m.bytes / c.originalBytes))}" r="3.5"><title>${escapeHtml(m.label)}</title></circle>`,
    );
  });
  const sampled =
    every > 1
      ? `<p class="note">${c.marks.length.toLocaleString("en")} improvements: one in ${every} is marked, and the last.</p>`
      : "";
  return (
    `<figure><figcaption>${escapeHtml(c.title)}</figcaption>` +
    `<svg id="${c.id}" class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(c.title)}" data-improvements="${c.marks.length}">` +
    parts.join("") +
    `</svg>${sampled}</figure>`
  );
}

/** The colours of the passes, by index in the pipeline (cycled), readable on white. */
export const PALETTE = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#9467bd",
  "#ff7f0e",
  "#17becf",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
];
