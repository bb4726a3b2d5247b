// node replay.mjs EVENTS [R M]: per-pass durations and a replay of the adaptive limit with recency
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
const path = process.argv[2];
const raw = readFileSync(path);
const ev = (path.endsWith(".gz") ? gunzipSync(raw) : raw).toString().trim().split("\n").map((l) => JSON.parse(l));
let initial; const ends = [];
for (const e of ev) {
  if (e.type === "check" && e.what === "original") initial = e.ms;
  if (e.type === "test-end") ends.push(e);
}
const q = (a, p) => { if (!a.length) return 0; const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]; };
const byPass = {};
for (const e of ends) { const p = (byPass[e.pass] ??= {}); (p[e.outcome] ??= []).push(e.ms); }
for (const [pass, o] of Object.entries(byPass)) {
  console.log(pass);
  for (const [k, a] of Object.entries(o)) console.log("  ", k.padEnd(16), a.length, "median", q(a, .5).toFixed(0), "p99", q(a, .99).toFixed(0), "max", Math.max(...a).toFixed(0), "sum", (a.reduce((s, x) => s + x, 0) / 1000).toFixed(1));
}
// Replay: class windows of the last W observations, each dropped once older than R test ends
// (keeping the last M of a class); limit = max(250, K x max(q99 int, q99 not)).
function replay(W, R, M, K = 2, load = 1) {
  const obs = { interesting: [], "not-interesting": [] };
  if (initial !== undefined) obs.interesting.push([0, initial * load]);
  let to = 0, cut = 0, cutInt = 0, n = 0;
  for (const e of ends) {
    n++;
    const pick = (c) => { let a = obs[c].slice(-W); const recent = a.filter(([i]) => i >= n - R); return (recent.length >= M ? recent : a.slice(-M)).map(([, ms]) => ms); };
    const seen = obs.interesting.length + obs["not-interesting"].length;
    const f = seen < 20 ? 10 : K;
    const limit = Math.max(250, f * Math.max(q(pick("interesting"), .99), q(pick("not-interesting"), .99)));
    if (e.outcome === "timeout") to += limit;
    else if (e.outcome in obs) { if (e.ms > limit) { cut++; if (e.outcome === "interesting") cutInt++; } obs[e.outcome].push([n, e.ms]); }
  }
  return `K ${K} W ${W} R ${R} M ${M}: timed-out ${(to / 1000).toFixed(1)} s, cut ${cut} (${cutInt} interesting)`;
}
console.log(replay(200, Infinity, 0));
for (const [R, M] of [[2000, 20], [1000, 20], [500, 20], [500, 10], [300, 10]]) console.log(replay(200, R, M));
for (const K of [1.5, 1.75]) console.log(replay(200, Infinity, 0, K));
const timeouts = ends.filter((e) => e.outcome === "timeout").length;
console.log(`${timeouts} timed-out tests at the 250 ms floor: ${(timeouts * 0.25).toFixed(1)} s`);
