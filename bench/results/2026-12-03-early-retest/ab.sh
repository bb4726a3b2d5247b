#!/bin/bash
# Runs each case with the slow memo test (0.2 s a test) at each -j in JOBS, once with each of two
# builds, REPS times, the builds' order reversed each time; appends one line a run to OUT:
# case, build (old/new), -j, rep, wall s, final re-test early (stats), same result as -j 1, load.
# usage: ab.sh OLD_DIST NEW_DIST ROOT REPS OUT "JOBS" CASES...   (cases prepared by ../2026-12-03-passes-ahead/setup.mjs under ROOT)
old=$1; new=$2; root=$3; reps=$4; out=$5; jobs=$6; shift 6
builds="old new"
for r in $(seq 1 $reps); do
  for c in "$@"; do
    d=$root/$c; in=$(ls $d | grep '^input' | head -1)
    for j in $jobs; do
      for b in $builds; do
        dist=$old; [ $b = new ] && dist=$new
        rm -f $d/ab.out $d/ab.json
        load=$(cut -d' ' -f1 /proc/loadavg)
        s=$(date +%s.%N)
        (cd $d && node $dist/src/cli/main.js $in -q -j $j --timeout 60 -o ab.out --stats ab.json -- ./slow {})
        e=$(date +%s.%N)
        same=$(cmp -s $d/ab.out $d/w1.out && echo same || echo DIFF)
        early=$(node -e 'console.log(require(process.argv[1]).finalCheck?.early ?? "-")' $d/ab.json)
        echo -e "$c\t$b\t$j\t$r\t$(echo "$e - $s" | bc)\t$early\t$same\t$load" >> $out
      done
      builds=$(echo $builds | tr ' ' '\n' | tac | tr '\n' ' ')
    done
  done
done
