import fs from "fs";
const L = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map(JSON.parse);
const st = {}; let cur = "start"; const per = {};
let passStart = 0;
const ivs = [];
for (const e of L) {
  if (e.type === "pass") { cur = e.pass; passStart = e.t; per[cur] = per[cur] ?? { t0: e.t, busy: 0, n: 0, maxc: 0, useful: 0 }; }
  if (e.type === "pass-end" && per[e.pass]) per[e.pass].t1 = e.t;
  if (e.type === "test-start") st[e.id] = e;
  if (e.type === "test-end") { const s = st[e.id]; ivs.push([s.t, e.t, e.pass, e.outcome]); }
}
for (const [a, b, p, o] of ivs) { const x = per[p]; if (!x) continue; x.busy += b - a; x.n++; if (o !== "cancelled") x.useful++; }
const end = L.at(-1).t;
console.log("end", end.toFixed(0));
for (const [p, x] of Object.entries(per)) if (x.n) console.log(p.padEnd(20), "wall", (x.t1 - x.t0).toFixed(0), "busy", x.busy.toFixed(0), "par", (x.busy / (x.t1 - x.t0)).toFixed(2), "tests", x.n, "answered", x.useful);
// gaps: time with 0 tests running
const evs = []; for (const [a, b] of ivs) { evs.push([a, 1], [b, -1]); } evs.sort((p, q) => p[0] - q[0]);
let c = 0, last = 0, idle = 0, hist = {}; for (const [t, d] of evs) { hist[c] = (hist[c] ?? 0) + (t - last); if (c === 0) idle += t - last; c += d; last = t; }
hist[0] += end - last;
console.log("time by concurrency", Object.fromEntries(Object.entries(hist).map(([k, v]) => [k, (v / 1000).toFixed(2)])));
