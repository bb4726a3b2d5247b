#!/bin/bash
# Runs each case at -j 8 with the slow memo test, once per value of WHITTLE_PASSES_AHEAD (read by the
# trial build only), REPS times, the values' order reversed each time; appends one line a run to OUT:
# case, passes ahead, rep, wall s, (unused), same result as -j 1, 1-minute load at the start.
# usage: ab.sh DIST ROOT REPS OUT "AHEADS" CASES...   (cases prepared by setup.mjs under ROOT)
dist=$1; root=$2; reps=$3; out=$4; aheads=$5; shift 5
for r in $(seq 1 $reps); do
  for c in "$@"; do
    d=$root/$c; in=$(ls $d | grep '^input' | head -1)
    for a in $aheads; do
      rm -f $d/ab.out
      load=$(cut -d' ' -f1 /proc/loadavg)
      s=$(date +%s.%N)
      (cd $d && WHITTLE_PASSES_AHEAD=$a node $dist/src/cli/main.js $in -q -j 8 --timeout 60 -o ab.out -- ./slow {})
      e=$(date +%s.%N)
      same=$(cmp -s $d/ab.out $d/w1.out && echo same || echo DIFF)
      echo -e "$c\t$a\t$r\t$(echo "$e - $s" | bc)\t\t$same\t$load" >> $out
    done
  done
  aheads=$(echo $aheads | tr ' ' '\n' | tac | tr '\n' ' ')
done
