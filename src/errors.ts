/**
 * Errors that callers may branch on by `code` rather than by message text.
 */
export type WhittleErrorCode =
  | "usage"
  | "input-not-found"
  | "test-not-executable"
  | "not-interesting"
  | "invalid-option"
  | "internal"
  /** A grammar file could not be read or processed (the message lists the tool's errors). */
  | "grammar"
  /** An input does not parse with the grammar (the message names the first syntax error). */
  | "syntax";

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
