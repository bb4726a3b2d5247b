#!/usr/bin/env bash
# v3.sh TAG JOBS ENV...: JS proxy seeds 1-6 with /tmp/dist-l
T=$1; J=$2; shift 2
for s in 1 2 3 4 5 6; do
  env "$@" node /tmp/dist-l/dist/src/cli/main.js g$s.js -o $T-r$s.js -j $J -q --stats $T-s$s.json --test ./oracle.sh
  node -e 'const s=require(process.argv[1]); const p=s.passes; const f=(n)=>p[n]?p[n].tests+"/"+p[n].bytesRemoved:"-"; const r=require("fs").readFileSync(process.argv[3],"utf8").replace(/\s/g,"").length; console.log(process.argv[2], s.tests, s.wallMs, "literal", f("literal"), "nws", r)' ./$T-s$s.json "$T g$s" ./$T-r$s.js
done
