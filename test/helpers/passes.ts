/** Shared by the tests of the passes over a built-in language's tree (rename, literal). */
import assert from "node:assert/strict";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { TreeSitterFrontEnd, type BuiltInLanguage } from "../../src/grammar/tree-sitter/index.js";
import { reduce } from "../../src/index.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

const frontEnds = new Map<string, Promise<TreeSitterFrontEnd>>();

/** The front-end of `language`, loaded once per test file. */
export function frontEnd(language: BuiltInLanguage): Promise<TreeSitterFrontEnd> {
  let f = frontEnds.get(language);
  if (f === undefined) frontEnds.set(language, (f = TreeSitterFrontEnd.load({ language })));
  return f;
}

/**
 * Reduces `input` with the given phases at -j 1: the result, and every candidate the test saw after
 * reduce()'s two checks (of the original and of the empty input).
 */
export async function reduceWith(
  language: BuiltInLanguage,
  phases: string[],
  input: string,
  interesting: (candidate: string) => boolean,
): Promise<{ out: string; tested: string[] }> {
  const tested: string[] = [];
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      tested.push(text(c));
      return c.length > 0 && interesting(text(c));
    },
    { pipeline: buildPipeline(phases, "both", await frontEnd(language)), jobs: 1 },
  );
  assert.equal(result.kind, "done");
  return { out: text(result.output), tested: tested.slice(2) };
}

/** Interesting or not, by a hash of the candidate and a seed: a property test's random oracle. */
export function coin(seed: number): (candidate: string) => boolean {
  return (candidate) => {
    let h = seed | 0;
    for (let i = 0; i < candidate.length; i++) h = Math.imul(h ^ candidate.charCodeAt(i), 0x9e3779b1);
    return (h >>> 7) % 3 !== 0;
  };
}
