import type { BenchCase, Discovery } from "./cases.js";
import { CaseOracle } from "./oracles.js";

/** What every section gets: the mode, the cases, a scratch folder and the shared per-case oracles. */
export interface BenchContext {
  readonly quick: boolean;
  /** Repetitions of every timing figure (quick 3, full 5). */
  readonly reps: number;
  readonly repoRoot: string;
  readonly sharedDir: string;
  readonly shared: Discovery;
  /** A scratch directory for this run (removed at the end). */
  readonly tmpDir: string;
  /** `--cases`: only the cases of these names (shared ones and a section's own); all when undefined. */
  readonly cases?: readonly string[];
  /** One memoized oracle per case, shared by all sections (see CaseOracle). */
  oracleFor(c: BenchCase): CaseOracle;
  sharedCase(name: string): BenchCase | undefined;
  /** Whether the case `name` is to be run (`--cases`). */
  wants(name: string): boolean;
}

export function createContext(
  fields: Omit<BenchContext, "oracleFor" | "sharedCase" | "wants">,
): BenchContext {
  const oracles = new Map<string, CaseOracle>();
  return {
    ...fields,
    oracleFor(c) {
      let o = oracles.get(c.name);
      if (!o) {
        o = new CaseOracle(c);
        oracles.set(c.name, o);
      }
      return o;
    },
    sharedCase(name) {
      return fields.shared.cases.find((c) => c.name === name);
    },
    wants(name) {
      return fields.cases === undefined || fields.cases.includes(name);
    },
  };
}

/** A benchmark section: measures, returns plain JSON-safe data, and renders it as Markdown. */
export interface Section<T> {
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<T>;
  render(data: T, ctx: BenchContext): string;
}
