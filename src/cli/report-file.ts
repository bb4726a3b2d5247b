import { open, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { CacheKind } from "../cache/index.js";
import type { ReductionEvent } from "../reduce/events.js";
import { OPTION_LIST, resolveOptions } from "../reduce/options.js";
import { REPORT_MARK, renderReport, type ReportPage, type ReportStatus } from "../report/html.js";
import { ReportRecorder } from "../report/record.js";
import { UsageError, type CliOptions } from "./args.js";
import { EXIT } from "./exit.js";
import { canonical, sameFile, whyNotWritable, writeAtomic } from "./files.js";
import { shellQuote } from "./shell.js";
import type { RunPlan } from "./plan.js";

/** While the run goes on, the report is rewritten at most this often (and the page reloads as often). */
export const REPORT_INTERVAL_MS = 3000;

/** How much of an existing file is read to find the mark of a report. */
const MARK_WINDOW = 4096;

/**
 * Whether `--report` may write to `path`: no file is there, or an empty one, or a report whittle
 * wrote (its head holds REPORT_MARK). Any other file might be the only copy of something.
 */
export async function mayHoldReport(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch {
    return true;
  }
  try {
    const head = Buffer.alloc(MARK_WINDOW);
    const { bytesRead } = await handle.read(head, 0, MARK_WINDOW, 0);
    return bytesRead === 0 || head.subarray(0, bytesRead).toString("utf8").includes(REPORT_MARK);
  } finally {
    await handle.close();
  }
}

/**
 * The report's canonical path, checked before any test runs: a regular file (it is replaced by
 * rename as the run goes), none of the files whittle must keep (`guarded`: the input, the output,
 * the backups, the statistics file), and no file but an earlier report.
 */
export async function checkReportPath(
  given: string,
  cwd: string,
  guarded: readonly (readonly [string, string | undefined])[],
): Promise<string> {
  const path = resolve(cwd, given);
  for (const [what, other] of guarded) {
    if (other !== undefined && (await sameFile(path, other)))
      throw new UsageError(`--report ${given} would overwrite ${what}: name another file`);
  }
  const why = await whyNotWritable(path);
  if (why !== undefined) throw new UsageError(`cannot write the report to ${given}: ${why}`);
  const special = await stat(path).then(
    (s) => !s.isFile(),
    () => false,
  );
  if (special) throw new UsageError(`--report ${given} is not a regular file: name a file`);
  if (!(await mayHoldReport(path))) {
    throw new UsageError(
      `--report ${given} would overwrite a file that is not a report of whittle: name another file (or remove it)`,
    );
  }
  return canonical(path);
}

/** What the page says about the run besides its events. */
export type ReportHeader = Omit<ReportPage, "run" | "status" | "error" | "writtenAt" | "refreshSeconds">;

/** The header of the report of a run with these options. */
export function reportHeader(o: CliOptions, outputName: string, pipeline: readonly string[]): ReportHeader {
  const resolved = resolveOptions(o.reduce) as unknown as Record<string, unknown>;
  const options = OPTION_LIST.map(([name, spec]): [string, string] => {
    const value = resolved[name];
    return [name, String(spec.show ? spec.show(value) : value)];
  });
  options.push(["timeout", o.timeoutMs === undefined ? "adaptive" : `${o.timeoutMs / 1000} s`]);
  return {
    input: o.input,
    output: outputName,
    command: o.command.map(shellQuote).join(" "),
    pipeline,
    options,
  };
}

/** How a run that ended with exit code `code` is described. */
function statusOf(code: number | undefined): ReportStatus {
  if (code === EXIT.done) return "done";
  if (code === EXIT.notInteresting) return "not-interesting";
  if (code === EXIT.interrupted) return "interrupted";
  if (code === EXIT.limit) return "limit";
  return "failed";
}

/**
 * The report of one run, kept on disk: written at the start, rewritten at most every
 * REPORT_INTERVAL_MS while events come, and a last time when the run ends, however it ends. Each
 * write replaces the file atomically (a temporary file beside it, renamed), so a reader never sees
 * half a page; writes never overlap.
 */
export class ReportFile {
  private readonly recorder: ReportRecorder;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = -Infinity;
  private closed = false;
  private failure: string | undefined;
  private warned = false;

  constructor(
    private readonly path: string,
    original: Uint8Array,
    cache: CacheKind,
    private readonly header: ReportHeader,
    /** Says that a write failed (once while running, and at the end). */
    private readonly warn: (text: string) => void,
    private readonly intervalMs = REPORT_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.recorder = new ReportRecorder(original, cache, now);
    this.write("running");
  }

  /** Feeds the reduction's events to the report, and schedules a rewrite. */
  readonly listener = (event: ReductionEvent): void => {
    this.recorder.listener(event);
    if (this.closed || this.timer !== undefined) return;
    const wait = Math.max(0, this.lastWrite + this.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.write("running");
    }, wait);
    // A pending rewrite never keeps whittle alive.
    this.timer.unref();
  };

  /** Records why the reduction failed (the page shows it). */
  failed(message: string): void {
    this.failure = message;
  }

  /** Writes the final page: the run ended with exit code `code`, or threw `thrown`. */
  async close(code: number | undefined, thrown?: unknown): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const status = thrown !== undefined ? "failed" : statusOf(code);
    if (thrown !== undefined) this.failure = thrown instanceof Error ? thrown.message : "an unexpected error";
    this.write(status, true);
    await this.writing;
  }

  private write(status: ReportStatus, last = false): void {
    this.lastWrite = this.now();
    const page: ReportPage = {
      ...this.header,
      run: this.recorder.snapshot(),
      status,
      ...(this.failure !== undefined && status === "failed" ? { error: this.failure } : {}),
      writtenAt: new Date().toISOString(),
      ...(last ? {} : { refreshSeconds: Math.max(1, Math.round(this.intervalMs / 1000)) }),
    };
    const html = new TextEncoder().encode(renderReport(page));
    this.writing = this.writing
      .then(() => writeAtomic(this.path, html))
      .catch((error: unknown) => {
        if (this.warned && !last) return;
        this.warned = true;
        this.warn(
          `cannot write the report to ${this.path}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  }
}

/** The report of a run planned with --report, started now; undefined without --report. */
export function openReport(plan: RunPlan, say: (text: string) => void): ReportFile | undefined {
  if (plan.reportPath === undefined) return undefined;
  const o = plan.options;
  const pipeline = plan.pipeline.map((pass) => pass.name);
  return new ReportFile(
    plan.reportPath,
    plan.input,
    resolveOptions(o.reduce).cache,
    reportHeader(o, plan.outputName, pipeline),
    (text) => say(`warning: ${text}`),
  );
}
