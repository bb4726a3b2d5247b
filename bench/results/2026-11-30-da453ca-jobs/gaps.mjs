// node gaps.mjs EVENTS.jsonl: stretches over 20 ms with no pass's test running, and the events around them
import fs from "fs";
const L = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map(JSON.parse);
let running = 0, last = 0, lastEv = null;
for (const e of L) {
  if (running === 0 && e.t - last > 20 && lastEv)
    console.log((e.t - last).toFixed(0), "ms after", `${lastEv.type}:${lastEv.pass ?? lastEv.what ?? ""}@${last.toFixed(0)}`, "until", `${e.type}:${e.pass ?? e.what ?? ""}`);
  if (e.type === "test-start") running++;
  if (e.type === "test-end") running--;
  last = e.t; lastEv = e;
}
