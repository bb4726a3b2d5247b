#!/usr/bin/env bash
# programs.sh BASE_MAIN NEW_MAIN: the six generated JavaScript programs of
# ../2026-11-30-syntax-learning/make-programs.sh (g1.js … g6.js, run in the directory that holds them
# and its oracle.sh), each reduced by the zero-config default at -j 1 with the previous build, then the
# new one; one line a run: build and program, tests, non-whitespace characters of the result, wall s,
# tests / bytes removed per pass. Results and statistics in /tmp/ex.
mkdir -p /tmp/ex
for s in 1 2 3 4 5 6; do
  for v in base new; do
    m=$1; [ $v = new ] && m=$2
    node "$m" g$s.js -o /tmp/ex/$v-g$s.js -j 1 -q --stats /tmp/ex/$v-g$s.json --test ./oracle.sh
    node -e 'const s=require(process.argv[1]); const r=require("fs").readFileSync(process.argv[2],"utf8"); const P=Object.entries(s.passes); console.log([process.argv[3], s.tests, r.replace(/\s/g,"").length, (s.wallMs/1000).toFixed(1), P.filter(([k,v])=>v.tests>0).map(([k,v])=>k.replace(/^(hdd|ddmin):/,"")+":"+v.tests+"/"+v.bytesRemoved).join(" ")].join("\t"))' /tmp/ex/$v-g$s.json /tmp/ex/$v-g$s.js "$v g$s"
  done
done
