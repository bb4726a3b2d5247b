#!/usr/bin/env bash
# ab8.sh A B ROUNDS [JOBS]: the two builds (checkouts with dist/) alternating on the shared cases of
# the jobs section, each test 0.2 s slower (WRAPPERS: a directory of the wrappers CASE-0.2.sh that
# bench section jobs writes: sleep 0.2, then the memo of the real oracle's answers); one line per run:
# round case build wall-ms tests result-bytes result-hash
A=$1; B=$2; R=$3; J=${4:-8}
for r in $(seq 1 $R); do for c in creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mock-a mock-b mock-c mozilla-select-html xml-title zeller-bug-c; do
  if [ $((r % 2)) = 1 ]; then order="$A $B"; else order="$B $A"; fi
  for b in $order; do
    f=$(ls /work/shared/bench/cases/$c/ | grep -v oracle); d=ab-$(basename $b)-$c; rm -rf $d; mkdir $d; cp /work/shared/bench/cases/$c/$f $d/
    (cd $d; s=$(date +%s%N); node $b/dist/src/cli/main.js $f -j $J --timeout 60 -q --stats s.json --test $WRAPPERS/$c-0.2.sh; e=$(date +%s%N); echo "$r $c $(basename $b) $(( (e-s)/1000000 )) $(node -e 'const s=require("./s.json"); console.log(s.tests, s.outputBytes)') $(sha256sum $(ls | grep reduced) | cut -c1-12)")
  done
done; done
