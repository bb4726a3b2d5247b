#!/usr/bin/env bash
# run.sh BUILD TAG: the shared grammar cases and the 3 generated JavaScript programs (node oracle),
# zero-config default, one line per case: tests, non-whitespace characters of the result, wall.
W=$1/dist/src/cli/main.js; tag=$2; shift 2
gen=../2026-11-27-timeout-floor
for n in 1 2 3; do [ -f $gen/c$n.js ] || node $gen/gen.mjs $n > $gen/c$n.js; done
for c in creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 mozilla-select-html zeller-bug-c p1 p2 p3; do
  case $c in p*) n=${c#p}; f=c$n.js; src=../2026-11-27-timeout-floor/$f; o=../2026-11-27-timeout-floor/oracle.sh;;
    *) f=$(ls /work/shared/bench/cases/$c/ | grep -v oracle | head -1); src=/work/shared/bench/cases/$c/$f; o=/work/shared/bench/cases/$c/oracle.sh;; esac
  d=$tag-$c; rm -rf $d; mkdir $d; cp $src $d/
  (cd $d; node $W $f -q --stats s.json -- $o {}; node -e 'const s=require("./s.json"); const t=require("fs").readFileSync(process.argv[2],"utf8"); console.log(process.argv[1].padEnd(22), String(s.tests).padStart(4), "tests", String(t.replace(/\s/g,"").length).padStart(4), "chars", (s.wallMs/1000).toFixed(1), "s")' $c $(ls | grep reduced))
done
