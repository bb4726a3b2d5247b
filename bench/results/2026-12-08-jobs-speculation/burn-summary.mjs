// node burn-summary.mjs FILE: per loop size and -j, the mean over cases and repetitions of tests
// and wall, and the medians of the test's duration and of the original's check, from burn.sh's lines.
import { readFileSync } from "node:fs";
const rows = readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => l.split("\t"));
const groups = new Map();
for (const [, n, j, tests, wall, median, , check] of rows) {
  const key = `${n}\t${j}`;
  if (!groups.has(key)) groups.set(key, { n: +n, j: +j, tests: [], wall: [], median: [], check: [] });
  const g = groups.get(key);
  g.tests.push(+tests); g.wall.push(+wall); g.median.push(+median);
  if (check !== undefined) g.check.push(+check);
}
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log("| awk loop | -j | runs | tests (mean) | wall ms (mean) | test ms (median) | check of the original ms (median) |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const g of groups.values())
  console.log(`| ${g.n} | ${g.j} | ${g.tests.length} | ${mean(g.tests).toFixed(1)} | ${mean(g.wall).toFixed(0)} | ${med(g.median).toFixed(1)} | ${g.check.length ? med(g.check) : "–"} |`);
