import fs from "fs";
const s = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = Object.entries(s.passes).filter(([, p]) => p.tests > 0).map(([n, p]) => `${n}:${p.tests}/${p.bytesRemoved}`).join(" ");
console.log(`tests ${s.tests} out ${s.outputBytes} wall ${s.wallMs ?? ""} ${out}`);
