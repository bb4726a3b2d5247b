#!/usr/bin/env bash
# run.sh BUILD_MAIN LABEL ENVVAR=VAL... : runs listed cases, prints tests/bytes/nonws/passes
main=$1; label=$2; shift 2
M=/work/exp/s31/memo
while read -r name input test; do
  ext=${input##*.}
  env "$@" node $main $input -j 1 -o /tmp/hid-$label.$ext --stats /tmp/hid-$label.json -q -- $test {} >/dev/null 2>&1
  node -e 'const s=require(process.argv[1]); const r=require("fs").readFileSync(process.argv[2],"utf8"); console.log([process.argv[3], process.argv[4], s.tests, r.length, r.replace(/\s/g,"").length, (s.wallMs/1000).toFixed(1), Object.entries(s.passes).filter(([k,v])=>v.tests>0).map(([k,v])=>k.replace(/^(hdd|ddmin):/,"")+":"+v.tests).join(" ")].join("\t"))' /tmp/hid-$label.json /tmp/hid-$label.$ext "$name" "$label"
done < cases.txt
