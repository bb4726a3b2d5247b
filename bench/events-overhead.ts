/**
 * What --events costs a run of fast tests: the same reduction (196 tests of a 2 ms in-process
 * oracle, -j1) six times without and six times with an EventsLog writing every event to a file,
 * alternating; prints each run's wall time and the medians. Run: node dist/bench/events-overhead.js
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventsLog } from "../src/cli/events-file.js";
import { reduce } from "../src/reduce/reduce.js";

let seed = 1;
const letters = Array.from({ length: 1500 }, () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return String.fromCharCode(97 + ((seed >> 16) % 26));
});
const input = Buffer.from(letters.join("") + "\n");
const wanted = /a.*b.*c.*d.*e.*f.*g.*h.*i.*j/;
const oracle = (candidate: Uint8Array): boolean => {
  const end = performance.now() + 2;
  while (performance.now() < end); // a 2 ms test
  return wanted.test(Buffer.from(candidate).toString("latin1"));
};

const dir = mkdtempSync(join(tmpdir(), "whittle-events-overhead-"));
const times: Record<"plain" | "events", number[]> = { plain: [], events: [] };
try {
  for (let i = 0; i < 6; i++) {
    for (const mode of ["plain", "events"] as const) {
      const log =
        mode === "events"
          ? EventsLog.open(
              { kind: "file", path: join(dir, "events.jsonl") },
              { stdout: process.stdout, warn: (text) => console.error(text), processWide: false },
              { whittle: "bench", input: "letters", size: input.length, options: {} },
            )
          : undefined;
      const started = performance.now();
      const result = await reduce(input, oracle, {
        jobs: 1,
        ...(log ? { onEvent: (e) => log.record(e) } : {}),
      });
      const ms = performance.now() - started;
      log?.end(0);
      times[mode].push(ms);
      console.log(`${mode}: ${ms.toFixed(0)} ms, ${result.stats.tests} tests`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
console.log(
  `median: ${median(times.plain).toFixed(0)} ms without, ${median(times.events).toFixed(0)} ms with --events`,
);
