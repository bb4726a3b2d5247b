/** The exit codes of the whittle command (documented in --help and the README). */
export const EXIT = {
  done: 0,
  internal: 1,
  usage: 2,
  notInteresting: 3,
  interrupted: 130,
} as const;
