#!/usr/bin/env bash
# run.sh OLD NEW REPS: small shared cases, a memo test that sleeps 0.2 s, -j 2 and -j 8, the builds alternating
OLD=$1; NEW=$2; REPS=$3
cases="json-obj-arr-87 json-invalid-escape json-extra-comma lithium-product-35 mozilla-select-html xml-title mock-a cvise-blocksort-c"
for c in $cases; do
  d=/tmp/jb/$c; mkdir -p $d/memo; cp -n /work/shared/bench/cases/$c/* $d/ 2>/dev/null
  in=$(ls $d | grep '^input' | head -1)
  node -e 'import("/work/main/dist/bench/lib/memo-test.js").then(m=>{m.memoTest(process.argv[1]+"/warm",process.argv[1]+"/oracle.sh",process.argv[1]+"/memo",0,"c");m.memoTest(process.argv[1]+"/slow",process.argv[1]+"/oracle.sh",process.argv[1]+"/memo",0.2,"c")})' $d
  (cd $d && node $NEW/dist/src/cli/main.js $in -o w.out -q -- ./warm {} && node $OLD/dist/src/cli/main.js $in -o w.out -q -- ./warm {})
done
for r in $(seq $REPS); do for c in $cases; do d=/tmp/jb/$c; in=$(ls $d | grep '^input' | head -1)
  for j in 2 8; do for b in $OLD $NEW; do
    s=$(date +%s%N); (cd $d && node $b/dist/src/cli/main.js $in -o o.out -j $j -q -- ./slow {}); e=$(date +%s%N)
    echo -e "$c\t$j\t$(basename $b)\t$(( (e-s)/1000000 ))\t$(tr -d ' \n\t' < $d/o.out | wc -c)"
  done; done; done; done
