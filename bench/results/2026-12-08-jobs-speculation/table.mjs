// node table.mjs DIR NAME...: tests, wall (from --stats) and result bytes per case for each variant.
import { readFileSync, readdirSync } from "node:fs";
const [dir, ...names] = process.argv.slice(2);
const cases = readdirSync(`${dir}/${names[0]}`).filter((f) => f.endsWith(".stats.json")).map((f) => f.slice(0, -11));
const tot = Object.fromEntries(names.map((n) => [n, { tests: 0, ms: 0, bytes: 0 }]));
console.log(`| case | ${names.map((n) => `${n} bytes | ${n} tests | ${n} wall`).join(" | ")} |`);
console.log(`| --- |${names.map(() => " --- | --- | --- |").join("")}`);
for (const c of cases) {
  const row = names.map((n) => {
    const s = JSON.parse(readFileSync(`${dir}/${n}/${c}.stats.json`, "utf8"));
    tot[n].tests += s.tests; tot[n].ms += s.wallMs; tot[n].bytes += s.outputBytes;
    return `${s.outputBytes} | ${s.tests} | ${(s.wallMs / 1000).toFixed(1)} s`;
  });
  console.log(`| ${c} | ${row.join(" | ")} |`);
}
console.log(`| **total** | ${names.map((n) => `${tot[n].bytes} | ${tot[n].tests} | ${(tot[n].ms / 1000).toFixed(1)} s`).join(" | ")} |`);
