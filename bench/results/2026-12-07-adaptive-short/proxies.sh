#!/usr/bin/env bash
# proxies.sh WHITTLE_MAIN: the six generated JavaScript programs (node ../2026-11-27-timeout-floor/gen.mjs 1..6,
# ../2026-12-03-literal-early/oracle.sh: node runs the candidate), each with WX_AA=16 and WX_AA=0,
# one after the other, alternating. Results and stats in proxies/.
set -u
main=$1; here=$(cd "$(dirname "$0")" && pwd); out=$here/proxies
order=(16 0)
for i in 1 2 3 4 5 6; do
  node "$here/../2026-11-27-timeout-floor/gen.mjs" $i > "$out/g$i.js"
  for v in "${order[@]}"; do
    (cd "$out" && WX_AA=$v node "$main" g$i.js -o r$v-$i.js -q --stats s$v-$i.json -- ./oracle.sh {})
    echo "g$i $v exit $? load $(cut -d' ' -f1 /proc/loadavg)"
  done
  order=("${order[1]}" "${order[0]}")
done
