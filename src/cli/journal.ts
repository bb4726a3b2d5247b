import { closeSync, fsyncSync, openSync, truncateSync, writeSync } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import { OUTCOMES, type Outcome } from "../outcome.js";
import type { OutcomeJournal } from "../reduce/journal.js";
import { UsageError, type CliOptions } from "./args.js";
import { writeAtomic, whyNotWritable } from "./files.js";
import { sha256 } from "../cache/digest.js";

/**
 * The journal of a run (--resume): a text file beside the result, `<result>.journal`. Its first line
 * is a JSON header naming what the answers depend on: the format's version, the SHA-256 of the
 * input's bytes as read at the start, the test command, the input's file name, the timeout and the
 * options that change which candidates are tested. Every later line is one finished test: the
 * SHA-256 of the candidate's bytes (as the content-hash cache keys it) and the oracle's answer.
 * Lines are appended as tests end and the file is flushed to disk (fsync) at each interesting
 * answer, so a kill at any moment loses at most a torn last line, which is ignored.
 */
export const JOURNAL_VERSION = 1;
const MAGIC = "whittle-journal";

/** What a journal's answers hold for: a journal is only resumed when all of it is the same. */
export interface JournalHeader {
  readonly [MAGIC]: number;
  /** SHA-256 (hex) of the input's bytes as read at the start. */
  readonly input: string;
  /** The test's argv, its program as an absolute path. */
  readonly command: readonly string[];
  /** The candidate's file name in the test's directory (the input's name). */
  readonly fileName: string;
  /** --timeout in ms, or null for the adaptive timeout. */
  readonly timeoutMs: number | null;
  /** The passes, in order. */
  readonly pipeline: readonly string[];
  /** The options that change which candidates are tested, by their flag's name. */
  readonly options: Readonly<Record<string, unknown>>;
}

/** Options that do not change the result nor the answers: the journal may be resumed with others. */
const FREE_OPTIONS: ReadonlySet<string> = new Set(["jobs", "cache", "cacheFail", "cacheEvict"]);

/** The journal of a run to be, as planned before the initial check. */
export interface JournalPlan {
  readonly path: string;
  readonly header: JournalHeader;
  /** With --resume: the answers read from the journal, per candidate hash in the order given. */
  readonly answers: Map<string, Outcome[]>;
  /** How many answers were read. */
  readonly entries: number;
  /** With --resume: the journal's bytes up to its last complete line (a torn line is cut off). */
  readonly keepBytes: number | undefined;
  /**
   * With --resume: the size of the result on disk when it is the input or a candidate the journal
   * records as interesting (it stays, and only smaller results replace it); undefined otherwise.
   */
  readonly keptResult: number | undefined;
  /** What to tell the user about the journal before the reduction, if anything. */
  readonly notice: string | undefined;
}

export function journalPathOf(resultPath: string): string {
  return `${resultPath}.journal`;
}

/** The digest the content-hash cache took of the same bytes, if it did (cache/digest.ts). */
export function sha256Hex(bytes: Uint8Array): string {
  return sha256(bytes).toString("hex");
}

/** The header of this run's journal. */
export function journalHeader(
  o: CliOptions,
  input: Uint8Array,
  command: readonly string[],
  fileName: string,
  pipeline: readonly string[],
): JournalHeader {
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(o.reduce)) {
    if (!FREE_OPTIONS.has(name)) options[name] = value === Infinity ? "inf" : value;
  }
  const grammar: Record<string, unknown> = {
    grammar: o.grammar,
    format: o.format ?? null,
    language: o.language ?? null,
    start: o.start ?? null,
    grammarHelpers: o.grammarHelpers ?? null,
    allowSyntaxErrors: o.allowSyntaxErrors,
    replacements: o.replacements ?? null,
    hoistCompatible: o.hoistCompatible ?? null,
    ...o.transforms,
  };
  return {
    [MAGIC]: JOURNAL_VERSION,
    input: sha256Hex(input),
    command: [...command],
    fileName,
    timeoutMs: o.timeoutMs ?? null,
    pipeline: [...pipeline],
    options: { ...options, ...grammar },
  };
}

/**
 * Plans the journal of a run whose result goes to the file `resultPath` (undefined: stdout, a device
 * or in place, where there is none). With --resume, reads the journal and refuses (UsageError) one
 * that is corrupt or was written for another input, test or options; a missing journal starts the
 * reduction from the beginning. Without --resume, an existing journal is overwritten, but only if it
 * is one (any other file there is refused), and never if it is one of `guarded` (the input, its
 * backups, the statistics file).
 */
export async function planJournal(
  o: CliOptions,
  resultPath: string | undefined,
  header: JournalHeader,
  sameAs: (path: string) => Promise<string | undefined>,
): Promise<JournalPlan | undefined> {
  if (resultPath === undefined) {
    if (!o.resume) return undefined;
    throw new UsageError(
      o.inPlace
        ? "--resume cannot be combined with --in-place: the journal of outcomes lives beside a result file; reduce with -o FILE to be able to resume"
        : "--resume needs the result in a regular file (-o FILE): the journal of outcomes is kept beside it",
    );
  }
  const path = journalPathOf(resultPath);
  const name = journalPathOf(o.output ?? resultPath);
  const other = await sameAs(path);
  if (other !== undefined) {
    throw new UsageError(`the journal ${name} would overwrite ${other}: name another output (-o FILE)`);
  }
  const why = await whyNotWritable(path);
  if (why !== undefined) throw new UsageError(`cannot write the journal ${name}: ${why}`);
  let bytes: Buffer | undefined;
  try {
    if (!(await stat(path)).isFile()) throw new UsageError(`the journal ${name} is not a regular file`);
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const base = { path, header, answers: new Map<string, Outcome[]>(), entries: 0 };
  if (bytes === undefined) {
    const notice = o.resume ? `no journal ${name}: nothing to resume, reducing from the start` : undefined;
    return { ...base, keepBytes: undefined, keptResult: undefined, notice };
  }
  if (!o.resume) {
    // Only a journal (or an empty file) may be overwritten: anything else there is the user's.
    if (bytes.length > 0 && !looksLikeJournal(bytes)) {
      throw new UsageError(
        `${name} exists and is not a journal of whittle, which it would overwrite: remove it or name another output (-o FILE)`,
      );
    }
    return {
      ...base,
      keepBytes: undefined,
      keptResult: undefined,
      notice: `overwriting the journal ${name} of an earlier run (--resume would have continued it)`,
    };
  }
  const read = parseJournal(bytes, name);
  const differs = headerDifference(read.header, header);
  if (differs !== undefined) {
    throw new UsageError(
      `cannot resume: the journal ${name} was written for ${differs}; without --resume the reduction starts afresh (and overwrites the journal)`,
    );
  }
  const keptResult = await knownResult(resultPath, header.input, read.answers);
  const torn = read.torn ? " (its torn last line is ignored)" : "";
  return {
    ...base,
    answers: read.answers,
    entries: read.entries,
    keepBytes: read.keepBytes,
    keptResult,
    notice: `resuming from the journal ${name}: ${read.entries} answers of earlier tests${torn}, which are not tested again`,
  };
}

/** The parts of a journal file. */
interface ReadJournal {
  header: Record<string, unknown>;
  answers: Map<string, Outcome[]>;
  entries: number;
  keepBytes: number;
  torn: boolean;
}

const ENTRY = new RegExp(`^([0-9a-f]{64}) (${OUTCOMES.join("|")})$`);

/**
 * Reads a journal's text; throws a UsageError naming what is wrong with a file that is not a
 * journal, or a line that is not an answer. Only the last line may be torn (no newline after it): a
 * run killed while appending it; it is left out.
 */
export function parseJournal(bytes: Uint8Array, name: string): ReadJournal {
  const text = Buffer.from(bytes).toString("utf8");
  const corrupt = (what: string): UsageError =>
    new UsageError(`the journal ${name} ${what}; remove it, or run without --resume to start afresh`);
  if (text.length === 0) throw corrupt("is empty (not a journal of whittle)");
  const end = text.lastIndexOf("\n");
  const firstEnd = text.indexOf("\n");
  if (firstEnd < 0) throw corrupt("has no complete first line (not a journal of whittle)");
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, firstEnd));
  } catch {
    header = undefined;
  }
  if (typeof header !== "object" || header === null || !(MAGIC in header)) {
    throw corrupt("does not start with a journal header (not a journal of whittle)");
  }
  const h = header as Record<string, unknown>;
  if (h[MAGIC] !== JOURNAL_VERSION) {
    throw corrupt(
      `is of format version ${JSON.stringify(h[MAGIC])}; this whittle reads version ${JOURNAL_VERSION}`,
    );
  }
  for (const field of ["input", "command", "fileName", "timeoutMs", "pipeline", "options"]) {
    if (!(field in h)) throw corrupt(`has a header without "${field}"`);
  }
  const answers = new Map<string, Outcome[]>();
  let entries = 0;
  const lines = text.slice(firstEnd + 1, end).split("\n");
  if (end === firstEnd) lines.length = 0;
  lines.forEach((line, i) => {
    const match = ENTRY.exec(line);
    if (match === null) {
      const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
      throw corrupt(
        `is corrupt at line ${i + 2}: expected a SHA-256 in hex, a space and an outcome (${OUTCOMES.join(", ")}), found ${JSON.stringify(shown)}`,
      );
    }
    const [, hash, outcome] = match as unknown as [string, string, Outcome];
    const queue = answers.get(hash);
    if (queue === undefined) answers.set(hash, [outcome]);
    else queue.push(outcome);
    entries++;
  });
  return {
    header: h,
    answers,
    entries,
    keepBytes: Buffer.byteLength(text.slice(0, end + 1)),
    torn: end < text.length - 1,
  };
}

/** Whether a file starts as a journal of whittle does (any version): such a file may be overwritten. */
export function looksLikeJournal(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 64)).toString("latin1").startsWith(`{"${MAGIC}":`);
}

/** What differs between the journal's header and this run's, in words, or undefined. */
function headerDifference(journal: Record<string, unknown>, now: JournalHeader): string | undefined {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (journal["input"] !== now.input) {
    return "another input: the bytes of the input are not those it was written for";
  }
  if (!same(journal["command"], now.command)) {
    return `another test command (the journal's: ${show(journal["command"])}; now: ${show(now.command)})`;
  }
  if (journal["fileName"] !== now.fileName) {
    return `an input of another file name (the journal's: ${show(journal["fileName"])}; now: ${now.fileName})`;
  }
  if (journal["timeoutMs"] !== now.timeoutMs) {
    const ms = (value: unknown): string => (value === null ? "adaptive" : `${show(value)} ms`);
    return `another --timeout (the journal's: ${ms(journal["timeoutMs"])}; now: ${ms(now.timeoutMs)})`;
  }
  const options = (journal["options"] ?? {}) as Record<string, unknown>;
  const names = new Set([...Object.keys(options), ...Object.keys(now.options)]);
  const changed = [...names]
    .filter((key) => !same(options[key], now.options[key]))
    .map((key) => `--${kebab(key)} (the journal's: ${show(options[key])}; now: ${show(now.options[key])})`);
  if (changed.length > 0) return `other options: ${changed.join(", ")}`;
  if (!same(journal["pipeline"], now.pipeline)) {
    return `another pipeline (the journal's: ${show(journal["pipeline"])}; now: ${show(now.pipeline)})`;
  }
  return undefined;
}

/** A header field's value as the user gave it. */
function show(value: unknown): string {
  if (Array.isArray(value)) return value.map(show).join(" ");
  if (value === null || value === undefined) return "none";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return `${value}`;
  return JSON.stringify(value);
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * The size of the result on disk if it is one this reduction found: the input, or a candidate the
 * journal records as interesting.
 */
async function knownResult(
  path: string,
  inputHash: string,
  answers: ReadonlyMap<string, readonly Outcome[]>,
): Promise<number | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  const hash = sha256Hex(bytes);
  return hash === inputHash || answers.get(hash)?.includes("interesting") ? bytes.length : undefined;
}

/**
 * The open journal of a run: answers from the earlier run are recalled (each once, in the order
 * they were given), new ones appended. A journal that cannot be written is reported once
 * (`onError`) and then left alone: the reduction goes on without it.
 */
export class JournalFile implements OutcomeJournal {
  private fd: number | undefined;
  /** How many answers were recalled rather than tested. */
  recalled = 0;

  private constructor(
    private readonly plan: JournalPlan,
    fd: number | undefined,
    private readonly onError: (error: unknown) => void,
  ) {
    this.fd = fd;
  }

  /**
   * Creates the journal afresh (its header written atomically) or opens it to append (--resume). One
   * that cannot be written (a full disk) is reported (`onError`); its answers are recalled all the
   * same, and new ones are not recorded.
   */
  static async open(plan: JournalPlan, onError: (error: unknown) => void): Promise<JournalFile> {
    let fd: number | undefined;
    try {
      if (plan.keepBytes === undefined) {
        await writeAtomic(plan.path, Buffer.from(`${JSON.stringify(plan.header)}\n`));
      } else {
        truncateSync(plan.path, plan.keepBytes);
      }
      fd = openSync(plan.path, "a");
    } catch (error) {
      onError(error);
    }
    return new JournalFile(plan, fd, onError);
  }

  peek(content: Uint8Array): Outcome | undefined {
    return this.plan.answers.get(sha256Hex(content))?.[0];
  }

  recall(content: Uint8Array): Outcome | undefined {
    const hash = sha256Hex(content);
    const queue = this.plan.answers.get(hash);
    const outcome = queue?.shift();
    if (queue?.length === 0) this.plan.answers.delete(hash);
    if (outcome !== undefined) this.recalled++;
    return outcome;
  }

  record(content: Uint8Array, outcome: Outcome): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, `${sha256Hex(content)} ${outcome}\n`);
      // An interesting answer is the one a resumed run cannot do without: on disk before the result.
      if (outcome === "interesting") fsyncSync(this.fd);
    } catch (error) {
      this.close();
      this.onError(error);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already unusable
    }
    this.fd = undefined;
  }
}

/** Starts the journal of a run (after the initial check): says what it holds, and opens it. */
export async function startJournal(
  plan: JournalPlan,
  say: ((text: string) => void) | undefined,
  warn: (text: string) => void,
): Promise<JournalFile> {
  if (plan.notice !== undefined) say?.(plan.notice);
  return JournalFile.open(plan, (error) =>
    warn(
      `cannot write the journal ${plan.path} (${error instanceof Error ? error.message : String(error)}): this run cannot be resumed from where it stops`,
    ),
  );
}

/** Removes the journal of a reduction that is done: its result is final, nothing is left to resume. */
export async function removeJournal(plan: JournalPlan): Promise<void> {
  await rm(plan.path, { force: true });
}

/**
 * Which improvements of a resumed run are written to the result file: while the answers are
 * replayed, the improvements are those found before, larger than the result kept on disk (keptResult),
 * which stays until a smaller one comes. `missed` says the newest improvement was not written.
 */
export class ResultGate {
  private open: boolean;
  missed = false;

  constructor(private readonly kept: number | undefined) {
    this.open = kept === undefined;
  }

  admit(content: Uint8Array): boolean {
    if (!this.open && content.length < this.kept!) this.open = true;
    this.missed = !this.open;
    return this.open;
  }
}
