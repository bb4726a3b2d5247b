#!/usr/bin/env bash
# programs.sh MAIN LABEL PREFIX ENV... : PREFIX1.js .. PREFIX6.js (make-programs.sh) at -j 1, results
# and statistics in /tmp/ex; one line each: label and program, tests, non-whitespace characters of
# the result, wall s, syntax skips, tests per pass.
main=$1; label=$2; p=$3; shift 3
mkdir -p /tmp/ex
for s in 1 2 3 4 5 6; do
  env "$@" node $main $p$s.js -o /tmp/ex/$label-$p$s.js -j 1 -q --stats /tmp/ex/$label-$p$s.json --test ./oracle.sh 2>/tmp/ex/$label-$p$s.err
  node -e 'const s=require(process.argv[1]); const r=require("fs").readFileSync(process.argv[2],"utf8"); const P=Object.entries(s.passes); console.log([process.argv[3], s.tests, r.replace(/\s/g,"").length, (s.wallMs/1000).toFixed(1), s.syntaxSkips, P.filter(([k,v])=>v.tests>0).map(([k,v])=>k.replace(/^(hdd|ddmin):/,"")+":"+v.tests).join(" ")].join("\t"))' /tmp/ex/$label-$p$s.json /tmp/ex/$label-$p$s.js "$label $p$s"
done
