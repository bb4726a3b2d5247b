#!/usr/bin/env bash
# jj.sh BUILD : -j 1 against -j 2 of one build, alternating per program; wall from --stats
BU=$1
for s in 1 2 3 4 5 6; do
  for J in $( [ $((s%2)) = 1 ] && echo "1 2" || echo "2 1"); do
    node $BU/dist/src/cli/main.js g$s.js -o jj$J-r$s.js -j $J -q --stats jj$J-s$s.json --test ./oracle.sh
    echo "j$J g$s $(node pp.mjs jj$J-s$s.json) nws $(tr -d ' \n\t' < jj$J-r$s.js | wc -c)"
  done
done
