// node mk.mjs CASE SLEEP_S -> writes ./CASE-test (memo dir ./memo-CASE)
import { memoTest } from "/work/main/dist/bench/lib/memo-test.js";
import { mkdirSync } from "node:fs";
const [c, s] = process.argv.slice(2);
mkdirSync(`/work/exp/s31/memo/memo-${c}`, { recursive: true });
console.log(memoTest(`/work/exp/s31/memo/${c}-${s}`, `/work/shared/bench/cases/${c}/oracle.sh`, `/work/exp/s31/memo/memo-${c}`, Number(s), "c"));
