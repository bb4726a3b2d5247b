#!/usr/bin/env bash
# events.sh BUILD WRAPPERS: each shared case of the jobs section at -j 1 with --events into
# cal-CASE/ev.jsonl, its test the wrapper WRAPPERS/CASE-0.sh (the memo of the real oracle's answers,
# no sleep: the answers and their order are those of the 0.2 s runs, in a fraction of the time).
W=$1/dist/src/cli/main.js; wrappers=$2
for c in creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mock-a mock-b mock-c mock-d mozilla-select-html xml-title zeller-bug-c; do
  f=$(ls ../../../../shared/bench/cases/$c/ | grep -v oracle); d=cal-$c; rm -rf $d; mkdir $d
  cp ../../../../shared/bench/cases/$c/$f $d/
  (cd $d && node "$W" $f -j 1 --timeout 60 -q --events ev.jsonl --test "$wrappers/$c-0.sh")
done
