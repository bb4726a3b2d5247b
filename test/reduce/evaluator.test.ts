/**
 * The evaluator is the one path of every candidate: its content cache spans the passes of a run.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { reduce, type ReductionEvent } from "../../src/index.js";

test("with a content cache, no candidate is tested twice in a run, across the line and character passes", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("a", "b", "ab", "ba", "x"), { minLength: 2, maxLength: 8 }),
      fc.constantFrom("content" as const, "content-hash" as const),
      async (lines, cache) => {
        const input = Buffer.from(lines.join("\n") + "\n");
        const asked = new Map<string, number>();
        const result = await reduce(
          input,
          (c) => {
            const s = Buffer.from(c).toString();
            asked.set(s, (asked.get(s) ?? 0) + 1);
            return s.includes("a") && s.includes("b");
          },
          { atom: "both", jobs: 1, cache, assumeInteresting: true },
        );
        assert.equal(result.kind, "done");
        for (const [content, times] of asked) {
          const interesting = content.includes("a") && content.includes("b");
          if (!interesting) assert.equal(times, 1, `${JSON.stringify(content)} was tested ${times} times`);
        }
      },
    ),
    { numRuns: 150 },
  );
});

test("events and statistics name the pass that proposed each candidate", async () => {
  const events: ReductionEvent[] = [];
  const result = await reduce(Buffer.from("x\nab\ny\n"), (c) => Buffer.from(c).includes("ab"), {
    atom: "both",
    jobs: 1,
    onEvent: (e) => events.push(e),
  });
  const passes = events.filter((e) => e.type === "pass").map((e) => e.pass);
  assert.deepEqual(passes, ["ddmin:line", "ddmin:char"]);
  const tested = new Set(events.flatMap((e) => (e.type === "test-start" ? [e.pass] : [])));
  assert.deepEqual([...tested].sort(), ["ddmin:char", "ddmin:line"]);
  const perPass = result.stats.passes;
  assert.equal(perPass["ddmin:line"]!.tests + perPass["ddmin:char"]!.tests, result.stats.tests);
  assert.equal(perPass["ddmin:line"]!.bytesRemoved, "x\nab\ny\n".length - "ab\n".length);
  assert.equal(perPass["ddmin:char"]!.bytesRemoved, 1, "the character pass removed the newline");
});
