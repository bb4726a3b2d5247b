#!/usr/bin/env bash
# A/B at -j J: base build vs new build, memo test 0.2 s, alternating per case.
# usage: ab.sh BASE_MAIN NEW_MAIN J OUTDIR [cases...]
BASE=$1; NEW=$2; J=$3; OUT=$4; shift 4
mkdir -p $OUT; OUT=$(cd $OUT && pwd)
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(creduce-file2-c cvise-blocksort-c hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87 lithium-product-35 mock-a mock-b mock-c mock-d mozilla-select-html xml-title zeller-bug-c)
i=0
for c in "${cases[@]}"; do
  src=/work/shared/bench/cases/$c; d=$OUT/$c; mkdir -p $d/memo
  in=$(ls $src | grep '^input'); cp $src/$in $d/$in; chmod u+w $d/$in
  node /work/exp/s29/jobs/mk.mjs $d/t0 $src/oracle.sh $d/memo 0 >/dev/null
  node /work/exp/s29/jobs/mk.mjs $d/t2 $src/oracle.sh $d/memo 0.2 >/dev/null
  for b in BASE NEW BASE NEW; do m=${!b}; (cd $d && node $m $in -o w-$b.out -j $J --timeout 60 -q -- ./t0 {} >/dev/null 2>&1); done
  if [ $((i % 2)) -eq 0 ]; then order="BASE NEW"; else order="NEW BASE"; fi
  for b in $order; do m=${!b}; (cd $d && node $m $in -o r-$b.out -j $J --timeout 60 -q --stats s-$b.json -- ./t2 {} >/dev/null 2>&1); done
  python3 - "$d" "$c" <<'PY'
import json,sys,filecmp
d,c=sys.argv[1:]
r=[]
for b in ('BASE','NEW'):
    s=json.load(open(f'{d}/s-{b}.json')); r.append((s['wallMs']/1000, s['tests']))
same=filecmp.cmp(f'{d}/r-BASE.out',f'{d}/r-NEW.out',shallow=False)
print(f"{c:22s} base {r[0][0]:6.1f}s {r[0][1]:5d}t  new {r[1][0]:6.1f}s {r[1][1]:5d}t  ratio {r[0][0]/r[1][0]:.2f} same={same}", flush=True)
PY
  i=$((i+1))
done
