#!/usr/bin/env bash
# all8.sh BUILD TAG JOBS : every case (not mock-d, not js) at -j JOBS with sleep 0.2, stats
W=$1/dist/src/cli/main.js; tag=$2; j=$3
for c in creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mock-a mock-b mock-c mozilla-select-html xml-title zeller-bug-c; do
  [ -f $c-0.2.sh ] || { ./mk.sh $c 0; ./mk.sh $c 0.2; }
  f=$(ls /work/shared/bench/cases/$c/ | grep -v oracle)
  d=r-$tag-$c-j$j; rm -rf $d; mkdir -p $d; cp /work/shared/bench/cases/$c/$f $d/
  if [ ! -f memo-$c/.warm$j ]; then (cd $d; node $W $f -j $j --timeout 60 -q --test ../$c-0.sh); touch memo-$c/.warm$j; fi
  rm -f $d/out* $d/*.reduced.*
  s=$(date +%s.%N); (cd $d; node $W $f -j $j --timeout 60 -q --stats stats.json --test ../$c-0.2.sh); e=$(date +%s.%N)
  echo "$c $j $(echo "$e - $s" | bc)"
done
