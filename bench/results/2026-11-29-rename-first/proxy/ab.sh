#!/usr/bin/env bash
# ab.sh: the six programs, -j 1, the new build (eae186d, /work/bench-clone) and the previous (3f9133b, /tmp/base) alternating
for s in 1 2 3 4 5 6; do
  if [ $((s % 2)) = 1 ]; then order="new old"; else order="old new"; fi
  for b in $order; do
    B=/work/bench-clone; [ $b = old ] && B=/tmp/base
    node $B/dist/src/cli/main.js g$s.js -o $b-r$s.js -j 1 -q --stats $b-s$s.json --test ./oracle.sh
    echo "$b g$s $(node pp.mjs $b-s$s.json) nws $(tr -d ' \n\t' < $b-r$s.js | wc -c)"
  done
done
