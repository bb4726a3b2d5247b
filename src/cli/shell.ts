import { substituteCandidate } from "../oracle/argv.js";

/**
 * `arg` as one word for a POSIX shell: as it is when it holds only safe characters, otherwise in
 * single quotes (inside which nothing is special; a single quote itself is written '\''). Quotes,
 * `$()`, backticks, spaces and newlines in file names all come out as literal text.
 */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * How the test ran on the original, as a person can paste it into a shell: the command line (in the
 * test's directory, the candidate is `./NAME`), and a one-liner that rebuilds that directory and runs it.
 * Without `inputPath` (the input came from stdin), the one-liner reads the input from its stdin.
 */
export function reproduction(
  command: readonly string[],
  fileName: string,
  inputPath: string | undefined,
): { argv: string; script: string } {
  const argv = [command[0]!, ...substituteCandidate(command.slice(1), `./${fileName}`)]
    .map(shellQuote)
    .join(" ");
  const script =
    `d=$(mktemp -d) && ${inputPath === undefined ? "cat >" : `cp ${shellQuote(inputPath)}`} "$d"/${shellQuote(fileName)} && ` +
    `(cd "$d" && ${argv}); echo "exit $?"`;
  return { argv, script };
}
