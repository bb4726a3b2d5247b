// node sim.mjs DIST CASE JOBS SPECULATE  -> in-process reduce with a 20 ms sleeping oracle (mock cases)
import { readFileSync } from "node:fs";
const [dist, c, jobs, spec] = process.argv.slice(2);
const { reduce } = await import(dist + "/src/index.js");
const input = readFileSync(`/work/shared/bench/cases/${c}/input.txt`);
const pred = {
  "mock-d": (s) => s.split("\n").filter((l) => /^[0-9]*[02468]$/.test(l)).length === 50,
  "mock-a": (s) => { const h = (x) => s.split("\n").includes(x); return h("5") && h("8") && (h("2") || !h("7")); },
  "mock-b": (s) => ["1","2","3","4","5","6","7","8"].every((x) => s.split("\n").includes(x)),
  "mock-c": (s) => ["1","2","3","4","6","8"].every((x) => s.split("\n").includes(x)),
  "lithium-product-35": (s) => { let p = 1; for (const l of s.split("\n")) if (/^[0-9]+$/.test(l)) p = (p * Number(l)) % 35; return p === 0; },
}[c];
let tests = 0;
const oracle = (cand, signal) => new Promise((res) => { tests++; const t = setTimeout(() => res(pred(Buffer.from(cand).toString())), 20); signal.addEventListener("abort", () => { clearTimeout(t); res(false); }); });
const t0 = Date.now();
const r = await reduce(input, oracle, { jobs: Number(jobs), speculate: spec === "1" });
console.log(c, "j" + jobs, "spec" + spec, Date.now() - t0, "ms", tests, "tests", r.output?.length ?? r.result?.length);
