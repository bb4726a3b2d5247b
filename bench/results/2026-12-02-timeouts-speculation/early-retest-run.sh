#!/usr/bin/env bash
# early-retest-run.sh OLD NEW REPS [SHARED] [WORK]: eight small shared cases with a memo test that
# sleeps 0.2 s (bench/lib/memo-test.ts, as section `jobs`), at -j 2 and -j 8, the two builds (checkouts
# with dist/ built) alternating, REPS times. Prints case, -j, build, wall ms, non-ws chars of the result.
OLD=$1; NEW=$2; REPS=$3; SHARED=${4:-$NEW/../shared}; WORK=${5:-$(mktemp -d)}
cases="json-obj-arr-87 json-invalid-escape json-extra-comma lithium-product-35 mozilla-select-html xml-title mock-a cvise-blocksort-c"
for c in $cases; do
  d=$WORK/$c; mkdir -p $d/memo; cp -n $SHARED/bench/cases/$c/* $d/ 2>/dev/null
  in=$(ls $d | grep '^input' | head -1)
  node -e 'import(process.argv[2]).then(m=>{m.memoTest(process.argv[1]+"/warm",process.argv[1]+"/oracle.sh",process.argv[1]+"/memo",0,"c");m.memoTest(process.argv[1]+"/slow",process.argv[1]+"/oracle.sh",process.argv[1]+"/memo",0.2,"c")})' $d $NEW/dist/bench/lib/memo-test.js
  (cd $d && node $NEW/dist/src/cli/main.js $in -o w.out -q -- ./warm {} && node $OLD/dist/src/cli/main.js $in -o w.out -q -- ./warm {})
done
for r in $(seq $REPS); do for c in $cases; do d=$WORK/$c; in=$(ls $d | grep '^input' | head -1)
  for j in 2 8; do for b in $OLD $NEW; do
    s=$(date +%s%N); (cd $d && node $b/dist/src/cli/main.js $in -o o.out -j $j -q -- ./slow {}); e=$(date +%s%N)
    echo -e "$c\t$j\t$(basename $b)\t$(( (e-s)/1000000 ))\t$(tr -d ' \n\t' < $d/o.out | wc -c)"
  done; done; done; done
