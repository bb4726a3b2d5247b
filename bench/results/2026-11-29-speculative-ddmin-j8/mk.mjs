import { memoTest } from "/work/bench-clone/dist/bench/lib/memo-test.js";
const [path, oracle, memo, s] = process.argv.slice(2);
console.log(memoTest(path, oracle, memo, Number(s), "c"));
