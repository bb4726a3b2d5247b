/**
 * A configuration is an ordered set of atom indices (ascending). The reducers never see bytes: a
 * serializer turns a configuration back into a candidate when a test needs it.
 */
export type Configuration = readonly number[];

/** The configuration [0, 1, …, size − 1]: every atom of the input. */
export function fullConfiguration(size: number): number[] {
  return Array.from({ length: size }, (_, i) => i);
}

/** Concatenates parts (subsets) back into one configuration, optionally leaving one part out (∇i). */
export function concatParts(parts: readonly Configuration[], without = -1): number[] {
  const out: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i === without) continue;
    const part = parts[i]!;
    for (let j = 0; j < part.length; j++) out.push(part[j]!);
  }
  return out;
}
