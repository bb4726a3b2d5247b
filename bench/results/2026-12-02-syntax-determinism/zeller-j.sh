#!/usr/bin/env bash
# zeller-j.sh REPO [RUNS]: zeller-bug-c reduced by the build in REPO (its dist/) once at -j 1, then
# RUNS times (default 8) at -j 8, with the jobs section's memo test without the sleep (the real
# oracle's answers by content: bench/lib/memo-test.ts); prints each run's summary and its result's
# md5, and how many -j 8 results differ from the -j 1 result.
# Needs ../shared beside the repository and a C compiler.
set -e
repo=$(cd "$1" && pwd); runs=${2:-8}
case_dir=$repo/../shared/bench/cases/zeller-bug-c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/memo"
node --input-type=module -e "
import { memoTest } from '$repo/dist/bench/lib/memo-test.js';
memoTest('$work/test', '$case_dir/oracle.sh', '$work/memo', 0, 'c');"
cp "$case_dir/input.c" "$work/input.c"
cd "$work"
run() { # run LABEL JOBS: one reduction, its summary line and its result's md5 (in $md5)
  node "$repo/dist/src/cli/main.js" input.c -o "out-$1.c" -j "$2" --timeout 60 -- ./test {} 2>&1 |
    grep "done:" | sed "s/^whittle: done: /$1 -j $2: /"
  md5=$(md5sum < "out-$1.c" | cut -c1-32)
  echo "  md5 $md5"
}
run once 1
one=$md5
differ=0
for r in $(seq 1 "$runs"); do
  run "run-$r" 8
  if [ "$md5" != "$one" ]; then differ=$((differ + 1)); fi
done
echo "-j 8 results that differ from the -j 1 result: $differ of $runs"
