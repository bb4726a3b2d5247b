// Summarizes an ab.sh output directory as markdown: per run and per pass.
import { readFileSync, readdirSync, existsSync } from "node:fs";
const dir = process.argv[2];
const runs = readFileSync(`${dir}/runs.txt`, "utf8").trim().split("\n").map((l) => l.split(" "));
const at = (sizes, s) => { let v = null; for (const [t, n] of sizes) if (t <= s) v = n; return v; };
const fmt = (n) => (n === null ? "–" : n.toLocaleString("en-US"));
const out = ["| case | build | load at start | 1 min | 2 min | 5 min | 10 min (non-ws chars) | tests | timed-out tests | time in them | share of the 2 slots' time | taken for timeouts untested |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"];
const passes = [];
for (const [c, name, , load, , wall] of runs) {
  const d = `${dir}/${c}-${name}`;
  const s = JSON.parse(readFileSync(`${d}/stats.json`, "utf8"));
  const sizes = readFileSync(`${d}/sizes.txt`, "utf8").trim().split("\n").map((l) => l.split(" ").map(Number));
  const tms = Object.values(s.passes).reduce((a, p) => a + p.timeoutMs, 0);
  out.push(`| ${c} | ${name} | ${load} | ${[60, 120, 300, 600].map((t) => fmt(at(sizes, t))).join(" | ")} | ${fmt(s.tests)} | ${fmt(s.timeouts)} | ${(tms / 1000).toFixed(1)} s | ${((100 * tms) / (2 * s.wallMs)).toFixed(1)} % | ${fmt(s.timeoutSkips)} |`);
  passes.push(`\n${c}, ${name}:\n\n| pass | tests | timed-out tests (time) | taken for timeouts untested | bytes removed | time |\n| --- | --- | --- | --- | --- | --- |`);
  for (const [k, p] of Object.entries(s.passes)) passes.push(`| ${k} | ${fmt(p.tests)} | ${fmt(p.timeouts)} (${(p.timeoutMs / 1000).toFixed(1)} s) | ${fmt(p.timeoutSkips)} | ${fmt(p.bytesRemoved)} B | ${(p.ms / 1000).toFixed(1)} s |`);
}
console.log(out.join("\n") + "\n" + passes.join("\n"));
