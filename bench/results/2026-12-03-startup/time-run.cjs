// Times one whittle run from spawn: the `start` event, the initial check's end, the `end` event, exit.
// Usage: node time-run.cjs WHITTLE_MAIN INPUT TEST [extra whittle options…]
const { spawn } = require("node:child_process");
const [main, input, testCmd, ...extra] = process.argv.slice(2);
const t0 = performance.now();
const p = spawn(process.execPath, [main, input, "-o", `${input}.out`, "-q", "--events", "-", ...extra, "--", testCmd, "{}"], {
  stdio: ["ignore", "pipe", "inherit"],
});
const at = {};
let buf = "";
p.stdout.on("data", (d) => {
  buf += d;
  const now = performance.now() - t0;
  for (const [k, pat] of [["start", '"type":"start"'], ["check", '"type":"check"'], ["end", '"type":"end"']])
    if (at[k] === undefined && buf.includes(pat)) at[k] = now;
});
p.on("exit", (code) => {
  at.exit = performance.now() - t0;
  console.log(JSON.stringify({ code, ...Object.fromEntries(Object.entries(at).map(([k, v]) => [k, Math.round(v)])) }));
});
