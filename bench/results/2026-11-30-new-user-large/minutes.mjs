// node minutes.mjs FILE.events.jsonl.gz: bytes and tests at 1, 2, 5, 10 and 15 minutes, and at the end.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
const events = gunzipSync(readFileSync(process.argv[2])).toString().trim().split("\n").map((l) => JSON.parse(l));
let size = events.find((e) => e.type === "start").size;
let tests = 0;
const marks = [1, 2, 5, 10, 15];
const out = [];
for (const e of events) {
  while (marks.length > 0 && e.t > marks[0] * 60_000) out.push(`${marks.shift()} min: ${size} B, ${tests} tests`);
  if (e.type === "improved") size = e.size;
  if (e.type === "test-start") tests++;
}
out.push(`end (${(events.at(-1).t / 1000).toFixed(0)} s): ${size} B, ${tests} tests`);
console.log(out.join("\n"));
