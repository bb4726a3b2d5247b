#!/usr/bin/env bash
# shadow.sh MAIN LABEL ENV... : shared cases at -j 1 with stderr kept
main=$1; label=$2; shift 2
mkdir -p /tmp/ex
for c in creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mozilla-select-html xml-title zeller-bug-c; do
  d=/work/shared/bench/cases/$c; in=$(ls $d | grep '^input' | head -1); ext=${in##*.}
  (cd $d && env "$@" node $main $in -j 1 -o /tmp/ex/$label-$c.$ext --stats /tmp/ex/$label-$c.stats.json -q -- ./oracle.sh {} >/dev/null 2>/tmp/ex/$label-$c.err)
  node -e 'const s=require(process.argv[1]); const r=require("fs").readFileSync(process.argv[2],"utf8"); const P=Object.entries(s.passes); console.log([process.argv[3], process.argv[4], s.tests, r.replace(/\s/g,"").length, (s.wallMs/1000).toFixed(1), s.syntaxSkips, P.filter(([k,v])=>v.tests>0).map(([k,v])=>k.replace(/^(hdd|ddmin):/,"")+":"+v.tests).join(" ")].join("\t"))' /tmp/ex/$label-$c.stats.json /tmp/ex/$label-$c.$ext "$c" "$label"
  grep -c LEARN /tmp/ex/$label-$c.err | sed 's/^/  learn lines: /'; grep LEARN /tmp/ex/$label-$c.err | awk '{printf "%s ", ($3=="interesting"?"I"$2:($3=="not-interesting"?".":substr($3,1,1)))} END {print ""}' | cut -c1-400
done
