import type { ReductionEvent } from "../reduce/events.js";
import { LEARN_AFTER, type ScopeChange } from "../reduce/syntax-filter.js";

/** What verbose says when the syntax filter of an original with errors changes what it checks. */
const SCOPE_CHANGE: Record<ScopeChange["why"], string> = {
  rejected: `none of ${LEARN_AFTER} candidates with new syntax errors was interesting; checking every candidate from now on`,
  interesting: "a new best has new syntax errors; checking only pairs from now on",
};

/** How a run is shown: a live line on a terminal, occasional lines in a log, or nothing. */
export type ProgressMode = "live" | "plain" | "quiet" | "verbose";

export interface ProgressState {
  readonly originalBytes: number;
  /** While the original is checked: how long that check may take; undefined once reducing. */
  checkLimitMs?: number | undefined;
  bytes: number;
  tests: number;
  cacheHits: number;
  /** Candidates the syntax filter kept from the oracle. */
  syntaxSkips: number;
  timeouts: number;
  pass: string;
  /**
   * For tree passes: the level (depth) being worked on, its node count, and the size of the best in
   * tokens when the level started.
   */
  level?: { depth: number; nodes: number; tokens: number; levels?: number | undefined } | undefined;
  /** The units (atoms, tokens, nodes of a level) of the list being reduced now, when known. */
  units?: number | undefined;
  /**
   * Adaptive deletion: where its scan is, the first unit its last round tried (`width` 1: single
   * units, 2: neighbouring pairs), of the list's `size` units.
   */
  scan?: { at: number; width: number; size: number } | undefined;
  /** The largest-nodes-first pass: the largest node it has not tried, and the size where it stops. */
  frontier?: { largest: number; stop: number } | undefined;
  /** ddmin's granularity; 0 until the pass's first round. */
  granularity: number;
  /** The pass's place in the pipeline (from 1) and the pipeline's length, when known. */
  passOf?: { index: number; count: number } | undefined;
  /** Bytes the best lost in the last minute; undefined during the run's first minute. */
  lastMinute?: number | undefined;
  /** More to show at the end of the line (the queue's workers and jobs, with --queue). */
  extra?: (() => string) | undefined;
}

/** The window of "removed in the last minute". */
export const RECENT_MS = 60_000;

export function formatBytes(n: number): string {
  if (n < 10_000) return `${n} B`;
  if (n < 10_000_000) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `part` as a percentage of `whole`, with one decimal, or more where one would round a share that is
 * neither none nor all of `whole` to 0.0% or 100.0% (40 B of 111,504: 0.04%, not 0.0%).
 */
export function formatPercent(part: number, whole: number): string {
  if (whole === 0 || part === whole) return "100.0%";
  if (part === 0) return "0.0%";
  const pct = (100 * part) / whole;
  for (let digits = 1; digits <= 6; digits++) {
    const text = pct.toFixed(digits);
    if (Number(text) > 0 && Number(text) < 100) return `${text}%`;
  }
  return pct < 50 ? "<0.000001%" : ">99.999999%";
}

/** How much smaller `after` is than `before`, as "99.96%": 100% only for an empty result. */
export function formatSaved(before: number, after: number): string {
  if (before === 0) return "0.0%";
  return formatPercent(before - after, before);
}

/**
 * Where in the tree a tree pass works: "level 4 of 9" (1-based, of the levels the best's tree has now)
 * where the algorithm goes level by level, else the depth it works at (HDDr's queue).
 */
export function levelText(level: { depth: number; levels?: number | undefined }): string {
  return level.levels !== undefined ? `level ${level.depth + 1} of ${level.levels}` : `depth ${level.depth}`;
}

/**
 * How far a scan of adaptive deletion is: "unit 38 of 82" (single units; the units before it were
 * tried and stay, those after it are what is left of the scan), "pair 12 of 40" (neighbouring pairs).
 */
export function scanText(scan: { at: number; width: number; size: number }): string {
  const positions = Math.max(1, scan.size - (scan.width - 1));
  return `${scan.width === 2 ? "pair" : "unit"} ${Math.min(scan.at + 1, positions)} of ${positions}`;
}

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** A test's duration: milliseconds under a second (a quick test is not "0.0 s"), else formatDuration. */
export function formatCheckDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : formatDuration(ms);
}

/**
 * One status line: size now vs. original, tests, rate, cache hits, syntax skips and timeouts (when
 * there are any), time, pass, granularity.
 */
export function statusLine(s: ProgressState, elapsedMs: number): string {
  if (s.checkLimitMs !== undefined) {
    return (
      `checking that ${formatBytes(s.originalBytes)} of input are interesting: ` +
      `waiting for the test for ${formatDuration(elapsedMs)} (limit ${formatDuration(s.checkLimitMs)})`
    );
  }
  const rate = elapsedMs > 0 ? (1000 * s.tests) / elapsedMs : 0;
  const recent = s.lastMinute === undefined ? "" : `, −${formatBytes(s.lastMinute)} in the last min`;
  const parts = [
    `${formatBytes(s.bytes)} of ${formatBytes(s.originalBytes)} (${formatPercent(s.bytes, s.originalBytes)}${recent})`,
    `${s.tests} tests (${rate.toFixed(1)}/s)`,
    `${s.cacheHits} cache hits`,
  ];
  if (s.syntaxSkips > 0) parts.push(`${s.syntaxSkips} syntax skips`);
  if (s.timeouts > 0) parts.push(`${s.timeouts} timeouts`);
  const where = s.level
    ? `, ${levelText(s.level)} (${s.level.nodes} nodes; best: ${s.level.tokens} tokens)`
    : s.frontier
      ? `, largest node left ${formatBytes(s.frontier.largest)} (stops under ${formatBytes(s.frontier.stop)})`
      : s.scan
        ? `, ${scanText(s.scan)}`
        : s.units !== undefined
          ? `, ${s.units} units`
          : "";
  const place = s.passOf === undefined ? "" : ` (pass ${s.passOf.index}/${s.passOf.count})`;
  // A scan's rounds are one position each, not a split of the list.
  const n = s.granularity > 0 && s.scan === undefined ? `, n=${s.granularity}` : "";
  parts.push(formatDuration(elapsedMs), `${s.pass}${place}${where}${n}`);
  const extra = s.extra?.();
  if (extra) parts.push(extra);
  return parts.join(" · ");
}

/** The clock a display reads and the timer that wakes it; tests pass fakes. */
export interface ProgressClock {
  now(): number;
  setInterval(tick: () => void, ms: number): { unref?(): unknown };
  clearInterval(handle: { unref?(): unknown }): void;
}

const realClock: ProgressClock = {
  now: Date.now,
  setInterval: (tick, ms) => setInterval(tick, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/** A live line is redrawn at least this often, events or not, so its clock keeps moving. */
export const LIVE_TICK_MS = 1000;
/** A plain (log) line is printed this often, when something besides the clock changed. */
export const PLAIN_TICK_MS = 5000;
/** A log line that only the clock would change is printed again after this long, as a sign of life. */
export const SAME_LINE_MS = 60_000;

/**
 * Renders reduction events for a person. Live mode redraws one line in place on events (at most ~10
 * times a second) and once a second in any case, so the elapsed time and rate keep moving during
 * slow tests; plain mode prints a line every 5 s; verbose prints each test and improvement. From
 * `checking()` until the first pass, the line says that the initial check is under way and for how
 * long.
 */
export class Progress {
  private readonly state: ProgressState;
  private lastDraw: number;
  /** The last plain line without its clock, and when it was printed (see printPlain). */
  private lastPlain: { key: string; at: number } | undefined;
  private drawn = false;
  private start: number;
  private ticker: { unref?(): unknown } | undefined;
  private readonly now: () => number;

  /** The best's size at each improvement, as [time, bytes], oldest first (pruned to RECENT_MS). */
  private readonly sizes: [number, number][] = [];

  constructor(
    private readonly mode: ProgressMode,
    originalBytes: number,
    private readonly out: NodeJS.WriteStream | { write(s: string): unknown; columns?: number },
    private readonly clock: ProgressClock = realClock,
    /** The pipeline's pass names, in order, for "pass k/n". */
    private readonly pipeline: readonly string[] = [],
  ) {
    this.now = () => clock.now();
    this.state = {
      originalBytes,
      bytes: originalBytes,
      tests: 0,
      cacheHits: 0,
      syntaxSkips: 0,
      timeouts: 0,
      pass: "-",
      granularity: 0,
    };
    this.start = this.now();
    this.lastDraw = this.start;
    const every = mode === "live" ? LIVE_TICK_MS : mode === "plain" ? PLAIN_TICK_MS : undefined;
    if (every !== undefined) {
      this.ticker = clock.setInterval(() => this.onTimer(), every);
      this.ticker.unref?.(); // the display never keeps whittle alive
    }
  }

  /** Shows `part()` at the end of every status line. */
  addStatus(part: () => string): void {
    this.state.extra = part;
  }

  /** The original input is being checked, for at most `limitMs`: say so until the reduction starts. */
  checking(limitMs: number): void {
    this.state.checkLimitMs = limitMs;
    this.start = this.now();
    if (this.mode === "live") this.draw(this.start);
  }

  private onTimer(): void {
    const t = this.now();
    if (this.mode === "live") this.draw(t);
    else this.printPlain(t);
  }

  readonly listener = (event: ReductionEvent): void => {
    const s = this.state;
    if (s.checkLimitMs !== undefined && event.type !== "check") {
      // The reduction has started: the clock now measures it.
      s.checkLimitMs = undefined;
      this.start = this.now();
    }
    switch (event.type) {
      case "pass": {
        s.pass = event.pass;
        s.level = undefined;
        s.scan = undefined;
        s.frontier = undefined;
        s.units = event.units;
        s.granularity = 0;
        // The first place from the current one on: a pipeline may name a pass twice.
        const from = s.passOf?.index ?? 0;
        const index = this.pipeline.indexOf(event.pass, from) + 1 || this.pipeline.indexOf(event.pass) + 1;
        s.passOf = index > 0 ? { index, count: this.pipeline.length } : undefined;
        if (this.mode === "verbose")
          this.line(`${event.pass}: ${event.units} units, ${formatBytes(event.size)}`);
        break;
      }
      case "level":
        s.scan = undefined;
        s.level = { depth: event.level, nodes: event.nodes, tokens: event.tokens, levels: event.levels };
        if (this.mode === "verbose") {
          this.line(
            `${event.pass}: ${levelText(s.level)}, ${event.nodes} nodes, best ${event.tokens} tokens`,
          );
        }
        break;
      case "round":
        s.granularity = event.granularity;
        s.units = event.size;
        // A growth round of adaptive deletion (no `at`) works where its scan is.
        if (event.at !== undefined) s.scan = { at: event.at, width: event.granularity, size: event.size };
        break;
      case "frontier":
        s.frontier = { largest: event.largest, stop: event.stop };
        break;
      case "reduced":
      case "iteration":
        s.units = event.size;
        break;
      case "test-start":
        s.tests++;
        break;
      case "test-end":
        if (event.outcome === "timeout") s.timeouts++;
        if (this.mode === "verbose") {
          this.line(
            `test #${event.id} (${event.label.kind} ${event.label.index + 1}/${event.label.granularity}, ${formatBytes(event.size)}): ${event.outcome}`,
          );
        }
        break;
      case "cache-hit":
        s.cacheHits++;
        break;
      case "syntax-skip":
        s.syntaxSkips++;
        if (this.mode === "verbose") {
          this.line(
            `skipped (${event.label.kind} ${event.label.index + 1}/${event.label.granularity}, ${formatBytes(event.size)}): ` +
              `${event.errors} syntax errors, the best so far has ${event.allowed}`,
          );
        }
        break;
      case "syntax-filter":
        if (this.mode === "verbose") {
          this.line(`syntax filter: ${SCOPE_CHANGE[event.why]}`);
        }
        break;
      case "improved":
        this.sizes.push([this.now(), s.bytes]);
        s.bytes = event.size;
        if (this.mode === "verbose") this.line(`improved: ${formatBytes(event.size)}`);
        break;
    }
    this.tick(event.type === "improved");
  };

  private tick(important: boolean): void {
    const t = this.now();
    if (this.mode === "live") {
      if (important || t - this.lastDraw >= 100) this.draw(t);
    } else if (this.mode === "plain") {
      if (t - this.lastDraw >= PLAIN_TICK_MS) this.printPlain(t);
    }
  }

  /**
   * The bytes the best lost in the RECENT_MS before `t`: its size then (before the first improvement
   * since, or now) minus its size now; undefined while the reduction is younger than that.
   */
  private lastMinute(t: number): number | undefined {
    if (t - this.start < RECENT_MS) return undefined;
    while (this.sizes.length > 0 && this.sizes[0]![0] < t - RECENT_MS) this.sizes.shift();
    return (this.sizes[0]?.[1] ?? this.state.bytes) - this.state.bytes;
  }

  /** Whether there is anything to show yet: the initial check, or a pass under way. */
  private get showing(): boolean {
    return this.state.checkLimitMs !== undefined || this.state.pass !== "-";
  }

  /**
   * A log line, unless nothing but the clock changed since the last one, less than SAME_LINE_MS ago:
   * a log of a slow test is then not a column of copies.
   */
  private printPlain(t: number): void {
    this.lastDraw = t;
    if (!this.showing) return;
    this.state.lastMinute = this.lastMinute(t);
    // The initial check's line is about the clock ("waiting for the test for 10.0 s"): always shown.
    const key =
      this.state.checkLimitMs !== undefined
        ? `${t}`
        : statusLine({ ...this.state, lastMinute: undefined }, 0);
    if (this.lastPlain?.key === key && t - this.lastPlain.at < SAME_LINE_MS) return;
    this.lastPlain = { key, at: t };
    this.out.write(`whittle: ${statusLine(this.state, t - this.start)}\n`);
  }

  private draw(t: number): void {
    this.lastDraw = t;
    if (!this.showing) return;
    const width = Math.max(20, (this.out.columns ?? 100) - 1);
    this.state.lastMinute = this.lastMinute(t);
    const text = statusLine(this.state, t - this.start);
    // \r + erase-line redraws in place without scrolling.
    this.out.write(`\r\x1b[2K${text.length > width ? text.slice(0, width - 1) + "…" : text}`);
    this.drawn = true;
  }

  private line(text: string): void {
    this.out.write(`whittle: ${text}\n`);
  }

  /** Clears the live line so the summary starts on a clean line. */
  finish(): void {
    if (this.ticker !== undefined) this.clock.clearInterval(this.ticker);
    this.ticker = undefined;
    if (this.drawn) this.out.write("\r\x1b[2K");
    this.drawn = false;
  }

  elapsed(): number {
    return this.now() - this.start;
  }
}
