#!/usr/bin/env bash
# run.sh MAIN LABEL ENV... : shared cases at -j 1, real oracles
main=$1; label=$2; shift 2
for c in creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mozilla-select-html xml-title zeller-bug-c; do
  d=/work/shared/bench/cases/$c; in=$(ls $d | grep '^input' | head -1); ext=${in##*.}
  (cd $d && env "$@" node $main $in -j 1 -o /tmp/ex/$label-$c.$ext --stats /tmp/ex/$label-$c.stats.json -q -- ./oracle.sh {} >/dev/null 2>&1)
  node -e 'const s=require(process.argv[1]); const r=require("fs").readFileSync(process.argv[2],"utf8"); const P=Object.entries(s.passes); const t=P.filter(([k])=>k.startsWith("hdd:")).reduce((a,[k,v])=>a+v.tests,0); console.log([process.argv[3], process.argv[4], s.tests, "tree "+t, "after "+(s.tests-t-1), r.replace(/\s/g,"").length, (s.wallMs/1000).toFixed(1), P.filter(([k,v])=>v.tests>0).map(([k,v])=>k.replace(/^(hdd|ddmin):/,"")+":"+v.tests).join(" ")].join("\t"))' /tmp/ex/$label-$c.stats.json /tmp/ex/$label-$c.$ext "$c" "$label"
done
