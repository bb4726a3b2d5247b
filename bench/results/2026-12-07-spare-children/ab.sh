#!/usr/bin/env bash
# ab.sh BEFORE_MAIN AFTER_MAIN OUT_DIR: the cases whose tree gains removable nodes (README), reduced
# by the zero-config default with each build, one run after the other, the order alternating from
# case to case. New-user cases with their tests; shared cases with their oracle.sh. Results and
# stats in OUT_DIR/{before,after}/.
set -u
before=$1; out=$3; after=$2; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$here/../../.." && pwd)
shared=$(cd "$here/../../../../shared/bench/cases" && pwd)
mkdir -p "$out/before" "$out/after"
order=(before after)
run() { # name input test
  for v in "${order[@]}"; do
    if [ "$v" = before ]; then main=$before; else main=$after; fi
    rm -f "$out/$v/$1.stats.json"
    node "$main" "$2" -o "$out/$v/$1.reduced" -q --stats "$out/$v/$1.stats.json" --test "$3"
    echo "$1 $v exit $? load $(cut -d' ' -f1 /proc/loadavg)"
  done
  order=("${order[1]}" "${order[0]}")
}
for c in hello-world-big-c json-extra-comma json-invalid-escape json-obj-arr-87; do
  run "$c" "$(ls "$shared/$c"/input.*)" "$shared/$c/oracle.sh"
done
for n in Inventory.java basket.cpp build.sh queue.ts shapes.rs; do
  run "$n" "$here/../2026-12-01-new-user-languages/cases/$n" "$here/../2026-12-01-new-user-languages/tests/$n.sh"
done
for n in deploy.yaml theme.css; do
  run "$n" "$here/../2026-12-02-new-user-more/cases/$n" "$here/../2026-12-02-new-user-more/tests/$n.sh"
done
for v in before after; do node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out/$v" > "$out/$v/summary.md"; done
