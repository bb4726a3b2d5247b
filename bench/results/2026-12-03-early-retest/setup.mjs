// Prepares one shared case for ab.sh: its input, a warm memo test (no sleep) and a slow one (0.2 s),
// the memo filled by unslept runs at -j 1, 2, 4 and 8, whose -j 1 result (w1.out) the A/B compares to.
// usage: node setup.mjs DIST SHARED_CASES ROOT CASE   (DIST: a build's dist/ directory)
import { mkdirSync, readdirSync, copyFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
const [dist, shared, root, name] = process.argv.slice(2);
const { memoTest } = await import(join(dist, "bench/lib/memo-test.js"));
const src = join(shared, name);
const dir = join(root, name);
mkdirSync(join(dir, "memo"), { recursive: true });
const input = readdirSync(src).find((f) => f.startsWith("input"));
copyFileSync(join(src, input), join(dir, input));
const kind = memoTest(join(dir, "warm"), join(src, "oracle.sh"), join(dir, "memo"), 0, "c");
memoTest(join(dir, "slow"), join(src, "oracle.sh"), join(dir, "memo"), 0.2, kind);
for (const j of [1, 2, 4, 8]) {
  const args = [join(dist, "src/cli/main.js"), input, "-q", "-j", String(j), "--timeout", "60", "-o", `w${j}.out`, "--", "./warm", "{}"];
  execFileSync("node", args, { cwd: dir, stdio: "inherit" });
}
