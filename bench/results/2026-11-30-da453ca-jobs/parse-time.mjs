import { TreeSitterFrontEnd } from "../../../dist/src/grammar/tree-sitter/index.js";
import { readFileSync } from "node:fs";
const [lang, file] = process.argv.slice(2);
const input = readFileSync(file);
let t = performance.now();
const fe = await TreeSitterFrontEnd.load({ language: lang });
console.log("load", (performance.now() - t).toFixed(1));
for (let k = 0; k < 4; k++) {
  t = performance.now(); const e = fe.syntaxErrors(input); const a = performance.now() - t;
  t = performance.now(); const p = fe.parse(input); const b = performance.now() - t;
  console.log(`syntaxErrors ${a.toFixed(1)} ms (${e}), parse ${b.toFixed(1)} ms (size ${p.tree.size})`);
}
