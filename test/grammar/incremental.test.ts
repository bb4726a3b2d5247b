/**
 * The syntax filter's incremental parses (src/grammar/tree-sitter/incremental.ts) must give the
 * trees a fresh parse gives: random deletions and replacements of every built-in language's samples,
 * rebased now and then on an edited text as a reduction rebases on each new best, compared node for
 * node (S-expressions, errors included) with a fresh parse; and the front-end's error counts with
 * and without a rebase.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILT_IN_LANGUAGES, loadLanguage, TreeSitterFrontEnd } from "../../src/grammar/tree-sitter/index.js";
import { editBetween, IncrementalParser } from "../../src/grammar/tree-sitter/incremental.js";
import { SAMPLES } from "./tree-sitter-samples.js";

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `text` with one to three random chunks removed, or one replaced by a character of the text. */
function edit(text: string, next: () => number): string {
  let out = text;
  const chunks = 1 + Math.floor(next() * 3);
  for (let c = 0; c < chunks && out.length > 0; c++) {
    const start = Math.floor(next() * out.length);
    const end = Math.min(out.length, start + 1 + Math.floor(next() * (next() < 0.5 ? 4 : 40)));
    const put = next() < 0.25 ? out[Math.floor(next() * out.length)]! : "";
    out = out.slice(0, start) + put + out.slice(end);
  }
  return out;
}

test("editBetween finds the region between the common prefix and suffix, with rows and columns", () => {
  const e = editBetween("ab\ncd\nef", "ab\ncX\nef");
  assert.deepEqual(e, {
    startIndex: 4,
    oldEndIndex: 5,
    newEndIndex: 5,
    startPosition: { row: 1, column: 1 },
    oldEndPosition: { row: 1, column: 2 },
    newEndPosition: { row: 1, column: 2 },
  });
  const removal = editBetween("a\nb\nc\nd", "a\nd");
  assert.deepEqual(
    [
      removal.startIndex,
      removal.oldEndIndex,
      removal.newEndIndex,
      removal.oldEndPosition,
      removal.newEndPosition,
    ],
    [2, 6, 2, { row: 3, column: 0 }, { row: 1, column: 0 }],
  );
  // Repeated characters: the suffix never overlaps the prefix.
  const same = editBetween("aaaa", "aa");
  assert.deepEqual([same.startIndex, same.oldEndIndex, same.newEndIndex], [2, 4, 2]);
});

test("editBetween on long texts (compared a chunk at a time) finds the prefix and suffix unit by unit", () => {
  const next = random(11);
  const alphabet = "ab\n";
  for (let run = 0; run < 300; run++) {
    const length = Math.floor(next() * 5000);
    let before = "";
    for (let i = 0; i < length; i++) before += alphabet[Math.floor(next() * 3)];
    const after = edit(before, next);
    const e = editBetween(before, after);
    let prefix = 0;
    const shorter = Math.min(before.length, after.length);
    while (prefix < shorter && before[prefix] === after[prefix]) prefix++;
    let suffix = 0;
    while (suffix < shorter - prefix && before.at(-1 - suffix) === after.at(-1 - suffix)) suffix++;
    assert.deepEqual(
      [e.startIndex, e.oldEndIndex, e.newEndIndex],
      [prefix, before.length - suffix, after.length - suffix],
      `run ${run}`,
    );
  }
});

for (const language of BUILT_IN_LANGUAGES) {
  test(`incremental parses of edited ${language} samples are the trees of fresh parses`, async () => {
    const { parser } = await loadLanguage(language);
    const next = random(7);
    let differ = 0;
    for (const sample of SAMPLES[language]) {
      const incremental = new IncrementalParser(parser);
      incremental.parse(sample).delete();
      let base = sample;
      for (let run = 0; run < 500; run++) {
        const text = edit(base, next);
        const tree = incremental.parse(text);
        const fresh = parser.parse(text)!;
        try {
          const what = `run ${run}: ${JSON.stringify(text)}`;
          assert.equal(tree.rootNode.hasError, fresh.rootNode.hasError, what);
          if (!fresh.rootNode.hasError)
            assert.equal(tree.rootNode.toString(), fresh.rootNode.toString(), what);
          else differ += tree.rootNode.toString() === fresh.rootNode.toString() ? 0 : 1;
          // A reduction rebases on candidates that pass; these pass now and then, errors or not.
          if (next() < 0.2) {
            incremental.rebase(text);
            base = text;
          }
        } finally {
          tree.delete();
          fresh.delete();
        }
      }
    }
    // Error recovery may differ after an edit (6 in 60,000 once), never whether there is an error.
    assert.ok(differ < 20, `${differ} trees with errors differ`);
  });
}

test("the front-end's error counts are the same with and without rebasing", async () => {
  const next = random(11);
  for (const language of ["json", "javascript", "c", "python"] as const) {
    const rebased = await TreeSitterFrontEnd.load({ language });
    for (const sample of SAMPLES[language]) {
      rebased.syntaxErrors(Buffer.from(sample));
      let base = sample;
      for (let run = 0; run < 100; run++) {
        const text = edit(base, next);
        const fresh = await TreeSitterFrontEnd.load({ language });
        const exact = fresh.syntaxErrors(Buffer.from(text));
        assert.equal(rebased.syntaxErrors(Buffer.from(text), true) > 0, exact > 0, text);
        assert.equal(rebased.syntaxErrors(Buffer.from(text)), exact, text);
        if (next() < 0.3) {
          rebased.rebase(Buffer.from(text));
          base = text;
        }
      }
    }
  }
});
