import type { ReductionEvent } from "../reduce/events.js";

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
  level?: { depth: number; nodes: number; tokens: number } | undefined;
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

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
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
  const pct = s.originalBytes === 0 ? 100 : (100 * s.bytes) / s.originalBytes;
  const rate = elapsedMs > 0 ? (1000 * s.tests) / elapsedMs : 0;
  const recent = s.lastMinute === undefined ? "" : `, −${formatBytes(s.lastMinute)} in the last min`;
  const parts = [
    `${formatBytes(s.bytes)} of ${formatBytes(s.originalBytes)} (${pct.toFixed(1)}%${recent})`,
    `${s.tests} tests (${rate.toFixed(1)}/s)`,
    `${s.cacheHits} cache hits`,
  ];
  if (s.syntaxSkips > 0) parts.push(`${s.syntaxSkips} syntax skips`);
  if (s.timeouts > 0) parts.push(`${s.timeouts} timeouts`);
  const where = s.level
    ? `, level ${s.level.depth} (${s.level.nodes} nodes; best: ${s.level.tokens} tokens)`
    : "";
  const place = s.passOf === undefined ? "" : ` (pass ${s.passOf.index}/${s.passOf.count})`;
  parts.push(formatDuration(elapsedMs), `${s.pass}${place}${where}, n=${s.granularity}`);
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
/** A plain (log) line is printed this often. */
export const PLAIN_TICK_MS = 5000;

/**
 * Renders reduction events for a person. Live mode redraws one line in place on events (at most ~10
 * times a second) and once a second in any case, so the elapsed time and rate keep moving during
 * slow tests; plain mode prints a line every 5 s; verbose prints each test and improvement. From
 * `checking()` until the first pass, the line says that the initial check is under way and for how
 * long.
 */
export class Progress {
  private readonly state: ProgressState;
  private lastDraw = 0;
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
        // The first place from the current one on: a pipeline may name a pass twice.
        const from = s.passOf?.index ?? 0;
        const index = this.pipeline.indexOf(event.pass, from) + 1 || this.pipeline.indexOf(event.pass) + 1;
        s.passOf = index > 0 ? { index, count: this.pipeline.length } : undefined;
        if (this.mode === "verbose")
          this.line(`${event.pass}: ${event.units} units, ${formatBytes(event.size)}`);
        break;
      }
      case "level":
        s.level = { depth: event.level, nodes: event.nodes, tokens: event.tokens };
        if (this.mode === "verbose") {
          this.line(`${event.pass}: level ${event.level}, ${event.nodes} nodes, best ${event.tokens} tokens`);
        }
        break;
      case "round":
        s.granularity = event.granularity;
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

  private printPlain(t: number): void {
    this.lastDraw = t;
    this.state.lastMinute = this.lastMinute(t);
    this.out.write(`whittle: ${statusLine(this.state, t - this.start)}\n`);
  }

  private draw(t: number): void {
    this.lastDraw = t;
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
