import type { Command, Option } from "commander";

/**
 * The groups of whittle's options, in the order --help and the README's generated options table
 * show them. Every option belongs to one: a new flag is added here (a test fails otherwise).
 */
export const OPTION_GROUPS = [
  {
    heading: "Test",
    flags: [
      "--test",
      "--timeout",
      "--max-time",
      "--max-tests",
      "--repeat",
      "--need",
      "--expect-exit",
      "--expect-signal",
      "--expect-stdout",
      "--expect-stderr",
      "--same-failure",
      "--queue",
    ],
  },
  {
    heading: "Output",
    flags: ["--output", "--in-place", "--resume", "--stats", "--report", "--events", "--quiet", "--verbose"],
  },
  {
    heading: "Reduction",
    flags: [
      "--phase",
      "--atom",
      "--algorithm",
      "--split-factor",
      "--strategy",
      "--subset-order",
      "--complement-order",
      "--dd-star",
      "--no-dd-star",
      "--syntax-filter",
      "--no-syntax-filter",
    ],
  },
  {
    heading: "Language and grammar",
    flags: [
      "--language",
      "--list-languages",
      "--grammar",
      "--format",
      "--start",
      "--grammar-helpers",
      "--allow-syntax-errors",
      "--replacements",
      "--hoist-compatible",
      "--no-squeeze",
      "--no-flatten-recursion",
      "--no-skip-unremovable",
    ],
  },
  {
    heading: "Performance",
    flags: [
      "--jobs",
      "--combine",
      "--no-combine",
      "--first-wins",
      "--cache",
      "--cache-fail",
      "--no-cache-evict",
    ],
  },
  {
    heading: "Config file",
    flags: ["--config", "--no-config", "--print-config"],
  },
  {
    heading: "Information",
    flags: ["--version", "--help"],
  },
] as const;

/** The heading of the group of an option (by its long flag), or undefined for one in no group. */
export function groupOf(option: Option): string | undefined {
  const long = option.long;
  return OPTION_GROUPS.find((g) => (g.flags as readonly string[]).includes(long ?? ""))?.heading;
}

/** Puts each of the program's options in its help group, the groups in OPTION_GROUPS's order. */
export function applyHelpGroups(program: Command): void {
  const rank = (o: Option): number => {
    const heading = groupOf(o);
    return heading === undefined
      ? OPTION_GROUPS.length
      : OPTION_GROUPS.findIndex((g) => g.heading === heading);
  };
  // commander shows the groups in the order their first options were added; the sort is stable.
  (program.options as Option[]).sort((a, b) => rank(a) - rank(b));
  for (const option of program.options) option.helpGroup(`${groupOf(option) ?? "Other"} options:`);
  // commander's own --help option, made when help is shown, goes into the last group.
  program.optionsGroup("Information options:");
}
