/** Shared by the tests of the passes over a tree (rename, literal, hidden, …). */
import assert from "node:assert/strict";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { TreeSitterFrontEnd, type BuiltInLanguage } from "../../src/grammar/tree-sitter/index.js";
import type { TreeFrontEnd } from "../../src/hdd/phases.js";
import { reduce, type ReduceResult } from "../../src/index.js";

const text = (b: Uint8Array): string => Buffer.from(b).toString();

const frontEnds = new Map<string, Promise<TreeSitterFrontEnd>>();

/** The front-end of `language`, loaded once per test file. */
export function frontEnd(language: BuiltInLanguage): Promise<TreeSitterFrontEnd> {
  let f = frontEnds.get(language);
  if (f === undefined) frontEnds.set(language, (f = TreeSitterFrontEnd.load({ language })));
  return f;
}

/**
 * Reduces `input` with the given phases at -j 1, over a built-in language's tree or any front-end's:
 * the result, every candidate the test saw after reduce()'s two checks (of the original and of the
 * empty input), and the run's statistics.
 */
export async function reduceWith(
  language: BuiltInLanguage | TreeFrontEnd,
  phases: string[],
  input: string,
  interesting: (candidate: string) => boolean,
): Promise<{ out: string; tested: string[]; stats: ReduceResult["stats"] }> {
  const tested: string[] = [];
  const result = await reduce(
    Buffer.from(input),
    (c) => {
      tested.push(text(c));
      return c.length > 0 && interesting(text(c));
    },
    {
      pipeline: buildPipeline(
        phases,
        "both",
        typeof language === "string" ? await frontEnd(language) : language,
      ),
      jobs: 1,
    },
  );
  assert.equal(result.kind, "done");
  return { out: text(result.output), tested: tested.slice(2), stats: result.stats };
}

/** Interesting or not, by a hash of the candidate and a seed: a property test's random oracle. */
export function coin(seed: number): (candidate: string) => boolean {
  return (candidate) => {
    let h = seed | 0;
    for (let i = 0; i < candidate.length; i++) h = Math.imul(h ^ candidate.charCodeAt(i), 0x9e3779b1);
    return (h >>> 7) % 3 !== 0;
  };
}
