/** The exit codes of the whittle command (documented in --help and the README). */
export const EXIT = {
  done: 0,
  /**
   * The reduction failed (the test could not be run, memory or disk ran out, the result could not be
   * written): the best result so far is kept, and where it is is printed. Also an internal error.
   */
  failed: 1,
  internal: 1,
  usage: 2,
  notInteresting: 3,
  /** Stopped by --max-time or --max-tests: the output holds the best result so far. */
  limit: 4,
  interrupted: 130,
} as const;
