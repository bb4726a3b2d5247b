/** The placeholder for the candidate's path in the test's arguments. */
export const PLACEHOLDER = "{}";

/**
 * The test's arguments for one candidate: every "{}" inside any argument becomes the candidate's path
 * (`--file={}` → `--file=/tmp/…/crash.c`); when no argument contains "{}", the path is appended.
 */
export function substituteCandidate(args: readonly string[], path: string): string[] {
  if (!args.some((a) => a.includes(PLACEHOLDER))) return [...args, path];
  return args.map((a) => a.split(PLACEHOLDER).join(path));
}
