import { readFileSync } from "node:fs";
import { TreeSitterFrontEnd } from "../../../dist/src/grammar/tree-sitter/index.js";
const js = readFileSync("../../../../shared/bench/cases/js-yaml-flow-error/input.js");
const page = Buffer.concat([Buffer.from("<html><body><p>x</p><script>"), js, Buffer.from("</script></body></html>")]);
for (const [lang, input] of [["javascript", js], ["html", page]]) {
  const fe = await TreeSitterFrontEnd.load({ language: lang });
  fe.rebase(input);
  const t0 = performance.now();
  let n = 0;
  for (let i = 0; i < 40; i++) {
    const at = Math.floor((i + 0.5) * input.length / 40);
    const cand = Buffer.concat([input.subarray(0, at), input.subarray(at + 20)]);
    fe.syntaxErrors(cand, true); n++;
  }
  console.log(lang, ((performance.now() - t0) / n).toFixed(1), "ms per check");
}
