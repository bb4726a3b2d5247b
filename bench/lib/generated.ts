import { makeCase, type BenchCase } from "./cases.js";
import { GENERATED_ORACLES } from "./oracles.js";

/**
 * Cases the harness makes itself, with in-process oracles: they run with or without /work/shared
 * and reach sizes the shared cases do not have. Everything is deterministic (a fixed-seed PRNG).
 */
export interface GeneratedCase {
  readonly benchCase: BenchCase;
  readonly test: (candidate: Uint8Array) => boolean;
  readonly what: string;
}

/** Mulberry32: a small deterministic PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta", "lambda", "zeta"];

/**
 * A ~4 KB pretty-printed JSON document (records with names, numbers, flags and tags). Interesting iff
 * it is valid JSON and still holds the number 8675309 — the role the 1–6 KB JerryScript inputs play
 * in the cache paper's DDMIN experiments.
 */
const jsonCases = new Map<number, GeneratedCase>();

export function jsonCase(targetBytes = 4096): GeneratedCase {
  let made = jsonCases.get(targetBytes);
  if (!made) {
    made = makeJsonCase(targetBytes);
    jsonCases.set(targetBytes, made);
  }
  return made;
}

function makeJsonCase(targetBytes: number): GeneratedCase {
  const rnd = prng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const records: unknown[] = [];
  const doc = { name: "inventory", version: 3, records };
  let i = 0;
  while (JSON.stringify(doc, null, 2).length < targetBytes) {
    records.push({
      id: i,
      name: `${pick(WORDS)}-${pick(WORDS)}`,
      count: Math.floor(rnd() * 1000),
      price: Math.round(rnd() * 10000) / 100,
      active: rnd() < 0.5,
      tags: [pick(WORDS), pick(WORDS)],
      ...(i === 7 ? { serial: 8675309 } : {}),
    });
    i++;
  }
  const input = Buffer.from(JSON.stringify(doc, null, 2) + "\n");
  const test = (b: Uint8Array): boolean => {
    try {
      return JSON.stringify(JSON.parse(Buffer.from(b).toString("utf8"))).includes("8675309");
    } catch {
      return false;
    }
  };
  const what = "valid JSON whose parsed value still holds 8675309";
  const benchCase = makeCase(
    `gen-json-${Math.round(input.length / 1024)}k`,
    "generated",
    input,
    "input.json",
  );
  GENERATED_ORACLES.set(benchCase.name, { kind: "exact", test, what });
  return { benchCase, test, what };
}

/**
 * `lines` lines of ~100 bytes (log-like text), of which the lines KEEP-1 … KEEP-5 (spread over the
 * input) must stay: the scale and overhead inputs.
 */
export function linesInput(lines: number, keep = 5): { input: Buffer; markers: string[] } {
  const rnd = prng(7);
  const markers = Array.from({ length: keep }, (_, k) => `KEEP-${k + 1}`);
  const at = new Map(markers.map((m, k) => [Math.floor(((k + 0.5) * lines) / keep), m]));
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    const marker = at.get(i);
    const filler = Array.from({ length: 12 }, () => WORDS[Math.floor(rnd() * WORDS.length)]!).join(" ");
    const line = `${String(i).padStart(6, "0")} ${marker ?? "info"} ${filler}`;
    parts.push(line.padEnd(99, ".").slice(0, 99) + "\n");
  }
  return { input: Buffer.from(parts.join("")), markers };
}

/**
 * One line of `bytes` bytes of words (no newline at all), with the marker `MARKER-7f3a` at 37 % of
 * the way in: the character-level scale input. A 64 KB block of random words is repeated, so even
 * 100 MB is generated at once.
 */
export function oneLineInput(bytes: number): { input: Buffer; marker: string } {
  const rnd = prng(11);
  const words: string[] = [];
  let length = 0;
  while (length < 65_536) {
    const word = WORDS[Math.floor(rnd() * WORDS.length)]!;
    words.push(word);
    length += word.length + 1;
  }
  const input = Buffer.alloc(bytes, words.join(" ") + " ");
  const marker = "MARKER-7f3a";
  input.write(marker, Math.floor(bytes * 0.37), "latin1");
  return { input, marker };
}
