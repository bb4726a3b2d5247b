/**
 * Loaded with `node --import` into each whittle command the hdd and languages sections run
 * (whittle-cli.ts): when the process exits (also after SIGINT, which whittle handles), it writes its
 * own peak RSS (getrusage of the process alone, not of its tests) to
 * `$WHITTLE_BENCH_RSS_DIR/rss-<pid>.json`. Without that variable it does nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env["WHITTLE_BENCH_RSS_DIR"];
if (dir) {
  process.on("exit", () => {
    try {
      const maxRssBytes = process.resourceUsage().maxRSS * 1024;
      writeFileSync(join(dir, `rss-${process.pid}.json`), JSON.stringify({ maxRssBytes }));
    } catch {
      // The harness falls back to the RSS it sampled.
    }
  });
}
