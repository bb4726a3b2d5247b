// summary.mjs OUT_DIR: one row a case from run.sh's --stats files and results.
import { readdirSync, readFileSync } from "node:fs";
const dir = process.argv[2];
const nonWs = (b) => b.toString("latin1").replace(/\s/g, "").length;
console.log("| case | input B | result B | non-ws chars | tests | wall s | timeouts | hidden, tree phases, rename, literal: tests / B | polish (token, glyph, blank): tests / B |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const f of readdirSync(dir).filter((f) => f.endsWith(".stats.json")).sort()) {
  const name = f.slice(0, -".stats.json".length);
  const s = JSON.parse(readFileSync(`${dir}/${f}`, "utf8"));
  const result = readFileSync(`${dir}/${name}.reduced`);
  const sum = (keys) =>
    Object.entries(s.passes)
      .filter(([k]) => keys(k))
      .reduce((a, [, v]) => [a[0] + v.tests, a[1] + v.bytesRemoved], [0, 0]);
  const polish = (k) => ["ddmin:token", "ddmin:glyph", "ddmin:blank"].includes(k);
  const tree = sum((k) => !polish(k));
  const pol = sum(polish);
  const timeouts = Object.values(s.passes).reduce((a, v) => a + v.timeouts, 0);
  console.log(
    `| ${name} | ${s.inputBytes} | ${result.length} | ${nonWs(result)} | ${s.tests} | ${(s.wallMs / 1000).toFixed(1)} | ${timeouts} | ${tree[0]} / ${tree[1]} | ${pol[0]} / ${pol[1]} |`,
  );
}
