#!/usr/bin/env bash
# v2.sh TAG BUILD JOBS: JS proxy seeds 1-6, prints tests, wall, rename/literal tests and ms
T=$1; B=$2; J=$3
for s in 1 2 3 4 5 6; do
  node $B/dist/src/cli/main.js g$s.js -o $T-r$s.js -j $J -q --stats $T-s$s.json --test ./oracle.sh
  node -e 'const s=require(process.argv[1]); const p=s.passes; const f=(n)=>p[n]?p[n].tests+"/"+p[n].ms:"-"; console.log(process.argv[2], s.tests, s.wallMs, "rename", f("rename"), "literal", f("literal"), "out", s.outputBytes)' ./$T-s$s.json "$T g$s"
done
