#!/usr/bin/env bash
# ab.sh WHITTLE_MAIN OUT_DIR: every shared case with an oracle (../../../../shared/bench/cases, but
# the two 130 KB JavaScript cases) and the twelve new-user cases (../2026-12-01-new-user-languages,
# ../2026-12-02-new-user-more), reduced by the zero-config default twice, one run after the other,
# the order alternating from case to case: WX_AA=16 (the polish's lists of up to 16 units by ddmin,
# as before) and WX_AA=0 (adaptive deletion for lists of every length), with a build of
# as-run.patch. Results and stats in OUT_DIR/{16,0}/.
set -u
main=$1; out=$2; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$here/../../.." && pwd)
shared=$(cd "$here/../../../../shared/bench/cases" && pwd)
mkdir -p "$out/16" "$out/0"
order=(16 0)
run() { # name input test
  for v in "${order[@]}"; do
    rm -f "$out/$v/$1.stats.json"
    WX_AA=$v node "$main" "$2" -o "$out/$v/$1.reduced" -q --stats "$out/$v/$1.stats.json" --test "$3"
    echo "$1 $v exit $? load $(cut -d' ' -f1 /proc/loadavg)"
  done
  order=("${order[1]}" "${order[0]}")
}
for d in "$shared"/*/; do
  c=$(basename "$d")
  [ -f "$d/oracle.sh" ] || continue
  case $c in js-yaml-flow-error|js-esquery-syntax-error|mock-*) continue ;; esac
  run "$c" "$(ls "$d"/input.*)" "$d/oracle.sh"
done
for set in 2026-12-01-new-user-languages 2026-12-02-new-user-more; do
  for input in "$here/../$set"/cases/*; do
    n=$(basename "$input")
    run "$n" "$input" "$here/../$set/tests/$n.sh"
  done
done
for v in 16 0; do node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out/$v" > "$out/$v/summary.md"; done
