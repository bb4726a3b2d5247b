import fs from "fs";
const p = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const total = (p.endTime - p.startTime) / 1000;
const key = (n) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
const incl = new Map();
for (const [id, us] of dt) {
  const n = byId.get(id);
  self.set(key(n), (self.get(key(n)) ?? 0) + us / 1000);
  const seen = new Set();
  for (let x = id; x !== undefined; x = parent.get(x)) { const k = key(byId.get(x)); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + us / 1000); } }
}
console.log(`profile ${total.toFixed(0)} ms`);
console.log("SELF"); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(v.toFixed(0).padStart(7), k);
console.log("INCLUSIVE"); for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 40))) console.log(v.toFixed(0).padStart(7), k);
