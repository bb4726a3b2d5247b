// bound.mjs JOBS_RESULTS DIR...: for each -j 1 events file (DIR/ev.jsonl, tests without sleep), the
// -j 8 wall a speculation with ideal calibration could reach, if each pass's answers were
// independent with the pass's own rate of interesting answers (speedup S(p) simulated, sim.mjs).
import fs from "node:fs";
import { speedup } from "./speedup.mjs";
const results = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
globalThis.JOBS = {};
for (const c of results.sections.jobs.data.cases) {
  const at = (j) => c.runs.find((r) => r.jobs === j).wallMs / 1000;
  globalThis.JOBS[c.case] = { j1: at(1), j8: at(8), tests1: c.runs.find((r) => r.jobs === 1).tests };
}
const out = [];
let tot1 = 0, tot8 = 0, totB = 0;
for (const dir of process.argv.slice(3)) {
  const c = dir.replace(/^.*cal-/, "").replace(/\/$/, "");
  const L = fs.readFileSync(`${dir}/ev.jsonl`, "utf8").trim().split("\n").map(JSON.parse);
  const passes = new Map(); let pass = "(none)";
  const W = Number(process.env.WINDOW ?? 1e9);
  for (const e of L) {
    if (e.type === "pass") pass = e.pass;
    if (e.type === "test-end") { const r = passes.get(pass) ?? { n: 0, yes: 0, seq: [] }; r.n++; r.seq.push(e.outcome === "interesting"); if (e.outcome === "interesting") r.yes++; passes.set(pass, r); }
  }
  const j = globalThis.JOBS[c]; if (!j) { console.log("no jobs row", c); continue; }
  const n = [...passes.values()].reduce((a, r) => a + r.n, 0);
  const startup = 0.45;
  const T = (j.j1 - startup) / (n + 3); // n tests + initial + empty check + final re-test
  let b = startup + 2 * T;
  for (const r of passes.values())
    for (let i = 0; i < r.seq.length; i += W) { const w = r.seq.slice(i, i + W); b += (w.length * T) / speedup(w.filter(Boolean).length / w.length, 8); }
  tot1 += j.j1; tot8 += j.j8; totB += b;
  console.log(c.padEnd(22), "tests", String(n).padStart(5), "j1", j.j1.toFixed(1), "j8", j.j8.toFixed(1), "bound", b.toFixed(1), "=> x", (j.j1 / b).toFixed(2), [...passes].map(([k, r]) => `${k}:${r.n}/${(r.yes / r.n).toFixed(2)}`).join(" "));
}
console.log("total j1", tot1.toFixed(1), "j8", tot8.toFixed(1), `(x${(tot1 / tot8).toFixed(2)})`, "bound", totB.toFixed(1), `(x${(tot1 / totB).toFixed(2)})`);
