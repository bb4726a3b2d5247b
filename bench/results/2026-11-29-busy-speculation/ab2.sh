#!/usr/bin/env bash
# ab2.sh J TAGA BUILDA TAGB BUILDB : alternate per program
J=$1; A=$2; BA=$3; B=$4; BB=$5
for s in 1 2 3 4 5 6; do
  for T in $( [ $((s%2)) = 1 ] && echo "$A $B" || echo "$B $A"); do
    if [ "$T" = "$A" ]; then BU=$BA; else BU=$BB; fi
    node $BU/dist/src/cli/main.js g$s.js -o $T-r$s.js -j $J -q --stats $T-s$s.json --test ./oracle.sh
    echo "$T g$s $(node pp.mjs $T-s$s.json) nws $(tr -d ' \n\t' < $T-r$s.js | wc -c)"
  done
done
