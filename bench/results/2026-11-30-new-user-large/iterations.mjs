// node iterations.mjs FILE.events.jsonl.gz PASS: tests and interesting tests per fixpoint iteration of a tree pass.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
const [file, pass] = process.argv.slice(2);
const events = gunzipSync(readFileSync(file)).toString().trim().split("\n").map((l) => JSON.parse(l));
const rows = new Map();
let iteration = -1;
for (const e of events) {
  if (e.type === "level" && e.pass === pass) iteration = e.iteration;
  if (e.pass !== pass || iteration < 0) continue;
  const row = rows.get(iteration) ?? { tests: 0, interesting: 0, size: undefined };
  rows.set(iteration, row);
  if (e.type === "test-end") {
    row.tests++;
    if (e.outcome === "interesting") row.interesting++;
  }
  if (e.type === "improved") row.size = e.size;
}
for (const [i, r] of rows) console.log(`iteration ${i}: ${r.tests} tests, ${r.interesting} interesting${r.size === undefined ? "" : `, best ${r.size} B`}`);
