// Median wall per case, -j and build from an ab.sh table, and how often the new build's final re-test
// was made early. usage: node summarize.cjs TABLE
const rows = require("fs").readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => l.split("\t"));
const m = {};
let diff = 0;
for (const [c, b, j, , wall, early, same] of rows) {
  const e = ((m[`j${j}`] ??= {})[c] ??= { old: [], new: [], early: 0 });
  e[b].push(Number(wall));
  if (b === "new" && early === "true") e.early++;
  if (same !== "same") diff++;
}
const med = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];
for (const j of Object.keys(m).sort()) {
  let to = 0, tn = 0;
  console.log(`-${j}: case, median wall old, new (s), new − old, early re-tests of the new build`);
  for (const [c, e] of Object.entries(m[j])) {
    const o = med(e.old), n = med(e.new);
    to += o; tn += n;
    console.log(`  ${c.padEnd(22)} ${o.toFixed(2)} ${n.toFixed(2)} ${(n - o).toFixed(2).padStart(6)}   ${e.early}/${e.new.length}`);
  }
  console.log(`  ${"total".padEnd(22)} ${to.toFixed(2)} ${tn.toFixed(2)} ${(tn - to).toFixed(2).padStart(6)} (${(((tn - to) / to) * 100).toFixed(1)} %)`);
}
console.log(`results differing from -j 1's: ${diff}`);
