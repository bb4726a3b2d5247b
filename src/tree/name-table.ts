/**
 * The small files a user writes to tell the tree passes something per rule or token name
 * (replacements, hoisting compatibility): a JSON object `{"name": value, …}`, or lines `name: rest`
 * (`#` starts a comment line, blank lines are skipped). Each entry is turned into a T by the caller;
 * a RangeError names what is wrong (the line, or the JSON problem).
 */
export function readNameTable<T>(
  source: string,
  fromJson: (name: string, value: unknown) => T,
  fromLine: (name: string, rest: string) => T,
  lineShape: string,
): Map<string, T> {
  const table = new Map<string, T>();
  const trimmed = source.trim();
  if (trimmed.startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      throw new RangeError(`not valid JSON: ${(error as Error).message}`);
    }
    for (const [name, entry] of Object.entries(value as Record<string, unknown>))
      table.set(name, fromJson(name, entry));
    return table;
  }
  source.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    const m = /^\s*([A-Za-z_]\w*)\s*:\s?(.*)$/.exec(line);
    if (!m) throw new RangeError(`line ${i + 1}: expected "${lineShape}", got ${JSON.stringify(line)}`);
    table.set(m[1]!, fromLine(m[1]!, m[2]!));
  });
  return table;
}
