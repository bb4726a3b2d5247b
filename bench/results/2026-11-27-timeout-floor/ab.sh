#!/usr/bin/env bash
# ab.sh BEFORE AFTER ROUNDS [JOBS]: the two builds (checkouts with dist/) one after the other on the
# three generated cases, ROUNDS times; one line per run: build seed round tests timed-out-runs
# time-in-them(ms) wall(ms) final-limit(ms) result-bytes share (time in timeouts / (slots × wall)).
# Fill the memo first with a run of each build with --timeout 10 (see README.md).
here=$(cd "$(dirname "$0")" && pwd); before=$1; after=$2; rounds=$3; jobs=${4:-2}
for sd in 1 2 3; do [ -f "$here/c$sd.js" ] || node "$here/gen.mjs" $sd > "$here/c$sd.js"; done
for r in $(seq 1 "$rounds"); do for sd in 1 2 3; do for b in "$before" "$after"; do
  d=$(mktemp -d); cp "$here/c$sd.js" "$d/"
  (cd "$d" && node "$b/dist/src/cli/main.js" c$sd.js -j "$jobs" -q --stats s.json -- "$here/sim.sh" {} &&
   node -e 'const s=require("./s.json"); const [b,sd,r,j]=process.argv.slice(1); console.log(b, sd, r, s.tests, s.timedOutRuns, s.timeoutTotalMs, s.wallMs, s.timeoutMs, s.outputBytes, (s.timeoutTotalMs/(j*s.wallMs)).toFixed(3))' "$(basename "$b")" $sd $r "$jobs")
  rm -rf "$d"
done; done; done
