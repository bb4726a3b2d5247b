import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { reduce } from "../../src/index.js";
import { createCache, type CacheKind } from "../../src/engine.js";
import type { CacheKey } from "../../src/cache/cache.js";
import { Configuration } from "../../src/ddmin/configuration.js";

/** A key whose configuration is the text's bytes as atom indices (the test texts are ascending). */
const key = (text: string): CacheKey => {
  const bytes = Buffer.from(text);
  return { config: Configuration.of(bytes), content: () => bytes };
};

describe("every cache kind", () => {
  for (const kind of ["config", "content", "content-hash"] as const) {
    test(`${kind}: stores passing outcomes, never timeouts, interesting ones only with cacheFail`, () => {
      const cache = createCache(kind, { cacheFail: false, evict: true });
      cache.add(key("abc"), "not-interesting");
      cache.add(key("abd"), "timeout");
      cache.add(key("abe"), "interesting");
      assert.equal(cache.lookup(key("abc")), "not-interesting");
      assert.equal(cache.lookup(key("abd")), undefined);
      assert.equal(cache.lookup(key("abe")), undefined);
      const withFail = createCache(kind, { cacheFail: true, evict: true });
      withFail.add(key("abe"), "interesting");
      assert.equal(withFail.lookup(key("abe")), "interesting");
      const stats = cache.stats();
      assert.equal(stats.entries, 1);
      assert.equal(stats.lookups, 3);
      assert.equal(stats.hits, 1);
      assert.ok(stats.bytes > 0 && stats.peakBytes >= stats.bytes);
    });

    test(`${kind}: eviction drops entries larger than a newly committed candidate, and only those`, () => {
      const cache = createCache(kind, { cacheFail: false, evict: true });
      for (const t of ["abcdef", "abcde", "abcd", "abc", "ab"]) cache.add(key(t), "not-interesting");
      assert.equal(cache.stats().entries, 5);
      cache.reduced(key("wxyz"));
      assert.equal(cache.stats().entries, 3);
      assert.equal(cache.stats().peakEntries, 5);
      assert.equal(cache.lookup(key("abcde")), undefined);
      assert.equal(cache.lookup(key("abcd")), "not-interesting");
      assert.equal(cache.lookup(key("ab")), "not-interesting");
      assert.ok(cache.stats().bytes < cache.stats().peakBytes);
    });

    test(`${kind}: without eviction nothing is dropped`, () => {
      const cache = createCache(kind, { cacheFail: false, evict: false });
      for (const t of ["abcdef", "abc"]) cache.add(key(t), "not-interesting");
      cache.reduced(key("x"));
      assert.equal(cache.stats().entries, 2);
    });
  }

  test("the configuration trie cache survives configurations of 50,000 runs (no recursion)", () => {
    const cache = createCache("config", { cacheFail: false, evict: true });
    // Every other atom: 50,000 runs, the most a configuration of this size can have.
    const long = Configuration.of(Array.from({ length: 50_000 }, (_, i) => 2 * i));
    const k = { config: long, content: () => new Uint8Array() };
    cache.add(k, "not-interesting");
    assert.equal(cache.lookup(k), "not-interesting");
    cache.reduced({ config: Configuration.of([1, 2]), content: () => new Uint8Array() });
    assert.equal(cache.stats().entries, 0);
  });
});

test("pass-only + eviction + hashing hold a small fraction of the plain content cache's bytes, with the same result and tests", async () => {
  // A character-level reduction of a few kilobytes: keep the two markers.
  const input = Buffer.from(
    Array.from(
      { length: 200 },
      (_, i) => `line ${i}: ${i === 40 ? "MARK" : "filler"} text ${i === 150 ? "MARK" : ""}\n`,
    ).join(""),
  );
  const oracle = (c: Uint8Array): boolean => Buffer.from(c).toString().split("MARK").length - 1 >= 2;
  const run = (cache: CacheKind, cacheFail: boolean, cacheEvict: boolean) =>
    reduce(input, oracle, {
      atom: "char",
      jobs: 1,
      cache,
      cacheFail,
      cacheEvict,
      strategy: "subsets-first",
      ddStar: false,
    });
  const plain = await run("content", true, false);
  const optimized = await run("content-hash", false, true);
  assert.ok(input.length > 3000);
  assert.deepEqual(Buffer.from(optimized.output), Buffer.from(plain.output));
  assert.equal(Buffer.from(plain.output).toString(), "MARKMARK");
  assert.equal(optimized.stats.tests, plain.stats.tests);
  assert.equal(optimized.stats.cacheHits, plain.stats.cacheHits);
  const ratio = optimized.stats.cache.peakBytes / plain.stats.cache.peakBytes;
  assert.ok(
    ratio < 0.15,
    `peak bytes ratio ${ratio.toFixed(4)} (${optimized.stats.cache.peakBytes} / ${plain.stats.cache.peakBytes})`,
  );
});
