/**
 * Errors that callers may branch on by `code` rather than by message text.
 */
export type WhittleErrorCode =
  | "usage"
  | "input-not-found"
  | "test-not-executable"
  | "not-interesting"
  | "invalid-option"
  | "out-of-memory"
  /** The temporary directory (TMPDIR) is missing, not a directory, not writable, or full. */
  | "tmpdir"
  /** A grammar file could not be read or processed (the message lists the tool's errors). */
  | "grammar"
  /** An input does not parse with the grammar (the message names the first syntax error). */
  | "syntax"
  | "internal";

export class WhittleError extends Error {
  readonly code: WhittleErrorCode;
  constructor(code: WhittleErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "WhittleError";
    this.code = code;
  }
}

/** The original input is not interesting, so there is nothing to reduce. */
export class NotInterestingError extends WhittleError {
  constructor(message: string) {
    super("not-interesting", message);
    this.name = "NotInterestingError";
  }
}

/** An option has a value that whittle cannot use; the message names the option. */
export class InvalidOptionError extends WhittleError {
  readonly option: string;
  constructor(option: string, message: string) {
    super("invalid-option", `${option}: ${message}`);
    this.name = "InvalidOptionError";
    this.option = option;
  }
}

/**
 * The reduction needs more memory than there is: found before reducing (an estimate against what is
 * available), or when an allocation failed during the run. `best` is the smallest interesting input
 * found before that (the original input when nothing was reduced yet).
 */
export class OutOfMemoryError extends WhittleError {
  readonly best: Uint8Array;
  /** Estimated bytes the reduction needs, and bytes available, when the estimate failed it. */
  readonly needed: number | undefined;
  readonly available: number | undefined;
  constructor(
    message: string,
    details: { best: Uint8Array; needed?: number; available?: number; cause?: unknown },
  ) {
    super("out-of-memory", message, { cause: details.cause });
    this.name = "OutOfMemoryError";
    this.best = details.best;
    this.needed = details.needed;
    this.available = details.available;
  }
}
