// iters.mjs FILES...: per tree pass and iteration, tests and bytes removed
import fs from "node:fs";
for (const f of process.argv.slice(2)) {
  const L = fs.readFileSync(f, "utf8").trim().split("\n").map(JSON.parse);
  let pass = null, it = 0, size = null; const rows = {};
  for (const e of L) {
    if (e.type === "pass") { pass = e.pass; it = 0; size = e.size; }
    if (e.type === "level") it = e.iteration;
    const k = `${pass}#${it}`;
    rows[k] ??= { tests: 0, removed: 0 };
    if (e.type === "test-start") rows[k].tests++;
    if (e.type === "improved") { rows[k].removed += size - e.size; size = e.size; }
  }
  console.log(f.split("/")[0], Object.entries(rows).filter(([k, v]) => v.tests > 0 && k.startsWith("hdd")).map(([k, v]) => `${k} ${v.tests}t/${v.removed}B`).join("  "));
}
