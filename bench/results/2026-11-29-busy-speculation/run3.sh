#!/usr/bin/env bash
# run3.sh TAG BUILD: 180 s of whittle -j 2 on js-yaml, non-ws chars at 60/120/180 s
T=$1; B=$2
rm -f $T-out.js $T-s.json
node $B/dist/src/cli/main.js input.js -o $T-out.js -j 2 -q --max-time 180s --stats $T-s.json -- ./oracle.sh {} &
P=$!
r=""
for t in 60 120 175; do
  sleep $(( t == 60 ? 60 : (t == 120 ? 60 : 55) ))
  r="$r $(tr -d ' \n\t' < $T-out.js 2>/dev/null | wc -c)"
done
wait $P
echo "$T at60/120/175:$r tests $(node -e 'const s=require("./'$T'-s.json");console.log(s.tests, Object.entries(s.passes).filter(([k,p])=>p.tests).map(([k,p])=>k+":"+p.tests).join(" "))') load $(cut -d' ' -f1 /proc/loadavg)"
