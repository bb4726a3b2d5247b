/**
 * What the adaptive timeout's factor would have cost on a recorded run: replays the test durations
 * of an --events file (gzipped or not) through TimeoutPolicy with other factors and prints, per
 * factor, the time the timed-out tests would have taken (each costs the limit in force when it
 * started) and how many tests that ended within the recorded limit would have been cut off (a
 * candidate taken for a timeout; an interesting one loses progress). Test ends are replayed in the
 * order they were recorded, which is close to, not exactly, the order their limits were set with
 * parallel jobs. Run: node dist/bench/timeout-replay.js EVENTS.jsonl[.gz] [--jobs N --cpus N]
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { TimeoutPolicy } from "../src/oracle/timeout-policy.js";
import type { Outcome } from "../src/outcome.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { jobs: { type: "string", default: "2" }, cpus: { type: "string", default: "2" } },
});
if (positionals.length === 0) {
  console.error("usage: node dist/bench/timeout-replay.js EVENTS.jsonl[.gz] … [--jobs N --cpus N]");
  process.exit(2);
}

interface Ended {
  outcome: Outcome;
  ms: number;
}

function read(path: string): { initialMs: number | undefined; ends: Ended[] } {
  const raw = readFileSync(path);
  const text = (path.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
  let initialMs: number | undefined;
  const ends: Ended[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const event = JSON.parse(line) as { type: string; what?: string; outcome?: Outcome; ms?: number };
    if (event.type === "check" && event.what === "original" && event.ms !== undefined) initialMs = event.ms;
    if (event.type === "test-end" && event.outcome !== undefined && event.ms !== undefined) {
      ends.push({ outcome: event.outcome, ms: event.ms });
    }
  }
  return { initialMs, ends };
}

const jobs = Number(values.jobs);
const cpus = Number(values.cpus);
for (const path of positionals) {
  const { initialMs, ends } = read(path);
  const timeouts = ends.filter((e) => e.outcome === "timeout");
  const decided = ends.filter((e) => e.outcome === "interesting" || e.outcome === "not-interesting");
  console.log(
    `${path}: ${ends.length} test ends, ${decided.length} decided, ${timeouts.length} timed out ` +
      `(recorded: ${(timeouts.reduce((s, e) => s + e.ms, 0) / 1000).toFixed(1)} s)`,
  );
  for (const factor of (process.env.FACTORS ?? "1.5,2,2.5,3").split(",").map(Number)) {
    const policy = new TimeoutPolicy({ factor, jobs, cpus });
    if (initialMs !== undefined) policy.observeInitial(initialMs);
    let timeoutMs = 0;
    let cut = 0;
    let cutInteresting = 0;
    let worst = 0;
    for (const end of ends) {
      const limit = policy.limitMs();
      if (end.outcome === "timeout") timeoutMs += limit;
      else if (end.outcome === "interesting" || end.outcome === "not-interesting") {
        worst = Math.max(worst, end.ms / limit);
        if (end.ms > limit) {
          cut++;
          if (end.outcome === "interesting") cutInteresting++;
        }
      }
      policy.observe(end.outcome, end.ms);
    }
    console.log(
      `  factor ${factor}: timed-out tests ${(timeoutMs / 1000).toFixed(1)} s; decided tests over the limit ` +
        `${cut} (${cutInteresting} interesting); longest decided test ${(worst * 100).toFixed(0)} % of its limit`,
    );
  }
}
