#!/bin/bash
# ab.sh J REPS CASE... : alternate build A ($A_TREE) and build B ($B_TREE) at -j J, each test 0.2 s slower
# than its oracle (memo.c); SHARED, A_TREE, B_TREE, MEMO_TEST: absolute paths
J=$1; REPS=$2; shift 2
A=$A_TREE/dist/src/cli/main.js; B=$B_TREE/dist/src/cli/main.js  # A_TREE, B_TREE: the two builds
MEMO_TEST=${MEMO_TEST:?the memo test program: cc -O2 -o memo memo.c}
for c in "$@"; do
  C=${SHARED:?the shared directory}/bench/cases/$c; in=$(ls $C | grep -v oracle.sh | head -1)
  d=${WORK:-/tmp/kill-scan-ab}/$c; mkdir -p $d/memo; cp $C/$in $d/$in
  cd $d
  for BU in $A $B; do node $BU $in -o warm-$in -j $J --timeout 60 -q -- $MEMO_TEST $d/memo 0 $C/oracle.sh {} >/dev/null 2>&1; done
  for r in $(seq $REPS); do
    for T in $( [ $((r%2)) = 1 ] && echo "A B" || echo "B A"); do
      BU=$A; [ $T = B ] && BU=$B
      s=$(date +%s%N); node $BU $in -o out-$T-$in -j $J --timeout 60 -q --stats s-$T.json -- $MEMO_TEST $d/memo 200 $C/oracle.sh {} >/dev/null 2>&1; e=$(date +%s%N)
      echo "$c $T $(( (e-s)/1000000 )) ms tests $(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tests)' s-$T.json) size $(wc -c < out-$T-$in)"
    done
  done
done
