// node sum.mjs: per case, the wall and the time of the passes of at most 8 tests (that took over 100 ms)
import { readdirSync, readFileSync } from "node:fs";
const dir = new URL(".", import.meta.url).pathname;
let wall = 0, small = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith(".stats.json")).sort()) {
  const s = JSON.parse(readFileSync(dir + f, "utf8"));
  let h = 0;
  for (const v of Object.values(s.passes)) if (v.tests <= 8 && v.ms > 100) h += v.ms;
  wall += s.wallMs; small += h;
  console.log(f.replace(".stats.json", "").padEnd(22), "wall", s.wallMs, "ms; small passes", h, "ms");
}
console.log("total wall", wall, "ms; small passes", small, "ms");
