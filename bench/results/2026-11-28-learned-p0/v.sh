#!/usr/bin/env bash
# v.sh TAG BUILD [env...]: JS proxy seeds 1-6
T=$1; B=$2; shift 2
for s in 1 2 3 4 5 6; do
  env "$@" node $B/dist/src/cli/main.js g$s.js -o $T-r$s.js -j 2 -q --stats $T-s$s.json --test ./oracle.sh
  echo "$T g$s $(node pp.mjs $T-s$s.json) nws $(tr -d ' \n\t' < $T-r$s.js | wc -c)"
done
