// node tails.cjs EVENTS.jsonl.gz: where a run's tests went after its first sweep of each pass.
// hdd:prune+hoist*: per iteration of the fixpoint (the `level` events' iteration); ddmin:token: per
// iteration of adaptive deletion's scans, single units and pairs apart; timeouts per pass and kind.
const fs = require("fs");
const zlib = require("zlib");
const events = zlib
  .gunzipSync(fs.readFileSync(process.argv[2]))
  .toString()
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l));
let pass = null;
let iteration = 0;
const hddh = new Map();
const token = new Map();
const kinds = new Map();
const row = (map, k, init) => (map.has(k) ? map.get(k) : (map.set(k, init()), map.get(k)));
for (const e of events) {
  if (e.type === "pass") [pass, iteration] = [e.pass, 0];
  if (pass === "hdd:prune+hoist*" && e.type === "level") iteration = e.iteration;
  if (pass === "ddmin:token" && e.type === "iteration") iteration = e.iteration;
  if (e.type === "test-end") {
    const k = row(kinds, `${e.pass} ${e.label.kind}`, () => ({ tests: 0, timeouts: 0, interesting: 0 }));
    k.tests++;
    if (e.outcome === "timeout") k.timeouts++;
    if (e.outcome === "interesting") k.interesting++;
  }
  if (pass === "hdd:prune+hoist*") {
    const r = row(hddh, iteration, () => ({ tests: 0, timeouts: 0, cacheHits: 0, improved: 0, from: null, to: null }));
    if (e.type === "test-end") (r.tests++, e.outcome === "timeout" && r.timeouts++);
    if (e.type === "cache-hit") r.cacheHits++;
    if (e.type === "improved") (r.improved++, (r.from ??= e.size), (r.to = e.size));
  }
  if (pass === "ddmin:token" && e.type === "test-end") {
    const r = row(token, iteration, () => ({ single: 0, singleYes: 0, pair: 0, pairYes: 0 }));
    const k = e.label.kind === "pair" ? "pair" : "single";
    r[k]++;
    if (e.outcome === "interesting") r[`${k}Yes`]++;
  }
}
console.log("hdd:prune+hoist* per iteration (sizes: bytes after the first and the last improvement)");
for (const [i, r] of hddh) console.log(i, JSON.stringify(r));
console.log("ddmin:token per iteration (tests that ran; single units and growth steps apart from pairs)");
for (const [i, r] of token) console.log(i, JSON.stringify(r));
console.log("tests, timeouts and interesting answers per pass and kind");
for (const [k, r] of kinds) console.log(k, JSON.stringify(r));
const ms = events
  .filter((e) => e.type === "test-end" && e.outcome !== "timeout" && e.outcome !== "cancelled")
  .map((e) => e.ms)
  .sort((a, b) => a - b);
const q = (p) => ms[Math.floor(p * (ms.length - 1))].toFixed(0);
console.log(`tests that ended (${ms.length}): median ${q(0.5)} ms, p99 ${q(0.99)} ms, longest ${q(1)} ms`);
