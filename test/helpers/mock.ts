/**
 * The mock examples A–D of Hodován & Kiss, "Practical improvements to the minimizing Delta Debugging
 * algorithm", Table 1, as in-process oracles over inputs with one element per line, and the figures
 * of its Tables 2 and 3(a): tests (+cache hits) [iterations] for a sequential run with ν = 2.
 */
import type { Strategy } from "../../src/ddmin/order.js";
import type { ReduceRunOptions } from "../../src/reduce/reduce.js";

/**
 * The setting Table 3(a) was measured with: sequential ddmin, ν = 2, both scans forward, no DD*, a
 * cache, and the check of the original input not counted. Add `strategy` (and a cache kind).
 */
export const TABLE3A_SETTING = {
  atom: "line",
  splitFactor: 2,
  subsetOrder: "forward",
  complementOrder: "forward",
  ddStar: false,
  jobs: 1,
  cache: "content",
  assumeInteresting: true,
} as const satisfies ReduceRunOptions;

export interface MockExample {
  readonly name: string;
  readonly elements: readonly number[];
  readonly interesting: (present: ReadonlySet<number>) => boolean;
  readonly size: number;
  readonly table3a: Readonly<Record<Strategy, { tests: number; hits: number; iterations: number }>>;
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const MOCKS: readonly MockExample[] = [
  {
    name: "A",
    elements: range(1, 8),
    interesting: (c) => c.has(5) && c.has(8) && (c.has(2) || !c.has(7)),
    size: 2,
    table3a: {
      "subsets-first": { tests: 22, hits: 22, iterations: 8 },
      "complements-first": { tests: 17, hits: 5, iterations: 8 },
      "complements-only": { tests: 14, hits: 1, iterations: 8 },
    },
  },
  {
    name: "B",
    elements: range(1, 8),
    interesting: (c) => range(1, 8).every((x) => c.has(x)),
    size: 8,
    table3a: {
      "subsets-first": { tests: 26, hits: 2, iterations: 3 },
      "complements-first": { tests: 26, hits: 2, iterations: 3 },
      "complements-only": { tests: 14, hits: 0, iterations: 3 },
    },
  },
  {
    name: "C",
    elements: range(1, 8),
    interesting: (c) => [1, 2, 3, 4, 6, 8].every((x) => c.has(x)) && !(c.has(5) && c.has(7)),
    size: 6,
    table3a: {
      "subsets-first": { tests: 30, hits: 16, iterations: 5 },
      "complements-first": { tests: 28, hits: 3, iterations: 5 },
      "complements-only": { tests: 18, hits: 1, iterations: 5 },
    },
  },
  {
    name: "D",
    elements: range(0, 99),
    interesting: (c) => range(0, 49).every((x) => c.has(2 * x)),
    size: 50,
    table3a: {
      "subsets-first": { tests: 472, hits: 3237, iterations: 57 },
      "complements-first": { tests: 422, hits: 16, iterations: 57 },
      "complements-only": { tests: 276, hits: 0, iterations: 57 },
    },
  },
];

/** The input of a mock example: its elements, one per line. */
export function mockInput(mock: MockExample): Uint8Array {
  return Buffer.from(mock.elements.map((e) => `${e}\n`).join(""));
}

/** The oracle of a mock example over candidate bytes. */
export function mockOracle(mock: MockExample): (candidate: Uint8Array) => boolean {
  return (candidate) => {
    const present = new Set(
      Buffer.from(candidate)
        .toString("utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map(Number),
    );
    return mock.interesting(present);
  };
}
