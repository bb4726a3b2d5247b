import type { CacheKind } from "../cache/index.js";
import type { ReductionEvent } from "../reduce/events.js";
import { StatsCollector, type ReductionStats } from "../reduce/stats.js";

/** One improvement: when (ms since the run started), after how many tests, the new size, by which pass. */
export interface ImprovementPoint {
  readonly ms: number;
  readonly tests: number;
  readonly bytes: number;
  readonly pass: string;
}

/** A size in the run's own unit (tokens of a tree run, else lines), at one moment. */
export interface UnitPoint {
  readonly ms: number;
  readonly tests: number;
  readonly count: number;
}

/** What the report shows about a run so far: everything the renderer needs, as plain data. */
export interface ReportRun {
  readonly original: Uint8Array;
  /** The best input so far (the original until the first improvement). */
  readonly best: Uint8Array;
  readonly improvements: readonly ImprovementPoint[];
  /** The run's unit and its sizes, when it has one (see ReportRecorder). */
  readonly unit:
    { readonly name: string; readonly original: number; readonly points: readonly UnitPoint[] } | undefined;
  readonly stats: ReductionStats;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
}

const NEWLINE = 0x0a;

/** Lines of a text, counted as an editor does: a last line without a newline counts. */
export function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (const byte of bytes) if (byte === NEWLINE) n++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE ? n + 1 : n;
}

/**
 * Folds the reduction's events into what the report shows. Time runs from the recorder's creation
 * (the start of the run, before the initial check). The unit is tokens when the run walks a tree
 * (its "level" events count them), else lines when the original has more than one.
 */
export class ReportRecorder {
  private readonly collector: StatsCollector;
  private readonly started: number;
  private readonly points: ImprovementPoint[] = [];
  private tokens: UnitPoint[] | undefined;
  private tokensOriginal = 0;
  private readonly lines: UnitPoint[] = [];
  private readonly originalLines: number;
  private best: Uint8Array;
  /** Whether anything changed since the last snapshot. */
  private changed = true;

  constructor(
    readonly original: Uint8Array,
    cache: CacheKind,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.collector = new StatsCollector(cache, original.length, () => this.now() - this.started);
    this.best = original;
    this.originalLines = lineCount(original);
  }

  readonly listener = (event: ReductionEvent): void => {
    this.collector.listener(event);
    this.changed = true;
    const at = { ms: this.now() - this.started, tests: this.collector.stats.tests };
    if (event.type === "improved") {
      this.best = event.content;
      this.points.push({ ...at, bytes: event.size, pass: event.pass });
      this.lines.push({ ...at, count: lineCount(event.content) });
    } else if (event.type === "level") {
      if (this.tokens === undefined) {
        this.tokens = [];
        this.tokensOriginal = event.tokens;
      }
      this.tokens.push({ ...at, count: event.tokens });
    }
  };

  /** Whether events came since the last snapshot. */
  get dirty(): boolean {
    return this.changed;
  }

  snapshot(): ReportRun {
    this.changed = false;
    const unit =
      this.tokens !== undefined
        ? { name: "tokens", original: this.tokensOriginal, points: [...this.tokens] }
        : this.originalLines > 1
          ? { name: "lines", original: this.originalLines, points: [...this.lines] }
          : undefined;
    return {
      original: this.original,
      best: this.best,
      improvements: [...this.points],
      unit,
      stats: structuredClone(this.collector.stats),
      elapsedMs: this.now() - this.started,
    };
  }
}
