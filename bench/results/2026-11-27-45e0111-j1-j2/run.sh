#!/usr/bin/env bash
# Zero-config default at -j 1 and -j 2 on the 10 small shared cases, alternating order per case.
W=${WHITTLE:-dist/src/cli/main.js}
out=${OUT:-/tmp/whittle-j1-j2}; mkdir -p $out
i=0
for c in ${CASES:-creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mozilla-select-html xml-title zeller-bug-c}; do
  d=/work/shared/bench/cases/$c; in=$(ls $d/input.*); ext=${in##*.}
  if [ $((i % 2)) = 0 ]; then order="1 2"; else order="2 1"; fi
  for j in $order; do
    s=$(date +%s.%N)
    node $W $in -j $j -q -o $out/$c.$j.$ext --stats $out/$c.$j.stats --test $d/oracle.sh
    e=$(date +%s.%N)
    t=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).tests)' $out/$c.$j.stats)
    printf '%s j%s tests %s wall %.1f size %s\n' $c $j $t $(echo "$e - $s" | bc) $(tr -d ' \t\n\r' < $out/$c.$j.$ext | wc -c)
  done
  i=$((i+1))
done
