import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { splitChars, splitLines } from "../../src/atoms/atoms.js";

/** One reduction problem: an input and (for shared cases) the oracle.sh that judges candidates. */
export interface BenchCase {
  readonly name: string;
  readonly source: "shared" | "generated";
  readonly input: Uint8Array;
  /** File name a candidate gets (keeps the extension, which some oracles rely on). */
  readonly inputName: string;
  /** Absolute path of oracle.sh, for shared cases. */
  readonly oraclePath?: string;
  readonly lines: number;
  readonly chars: number;
}

export function makeCase(
  name: string,
  source: BenchCase["source"],
  input: Uint8Array,
  inputName: string,
  oraclePath?: string,
): BenchCase {
  return {
    name,
    source,
    input,
    inputName,
    ...(oraclePath === undefined ? {} : { oraclePath }),
    lines: splitLines(input).count,
    chars: splitChars(input).count,
  };
}

export interface Discovery {
  readonly cases: BenchCase[];
  /** Why cases are missing, when they are; shown in the report and on stderr. */
  readonly note?: string;
}

/** The shared cases: every folder of `casesDir` with an `input.*` and an `oracle.sh`. */
export function discoverSharedCases(casesDir: string): Discovery {
  if (!existsSync(casesDir)) {
    return { cases: [], note: `shared cases not found at ${casesDir}: only generated cases are used` };
  }
  const cases: BenchCase[] = [];
  const skipped: string[] = [];
  for (const name of readdirSync(casesDir).sort()) {
    const dir = join(casesDir, name);
    if (!statSync(dir).isDirectory()) continue;
    const files = readdirSync(dir);
    const inputName = files.find((f) => f.startsWith("input."));
    const oracle = join(dir, "oracle.sh");
    if (inputName === undefined || !existsSync(oracle)) {
      skipped.push(name);
      continue;
    }
    cases.push(makeCase(name, "shared", readFileSync(join(dir, inputName)), inputName, oracle));
  }
  const note = skipped.length
    ? `skipped folders without input.* and oracle.sh: ${skipped.join(", ")}`
    : undefined;
  return note === undefined ? { cases } : { cases, note };
}
