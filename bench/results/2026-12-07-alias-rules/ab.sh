#!/usr/bin/env bash
# ab.sh BEFORE_MAIN AFTER_MAIN OUT_DIR: the cases whose tree changes (README), reduced by the
# zero-config default with each build, one run after the other, the order alternating.
set -u
before=$1; after=$2; out=$3; here=$(cd "$(dirname "$0")" && pwd)
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
run hello-world-big-c "$shared/hello-world-big-c/input.c" "$shared/hello-world-big-c/oracle.sh"
run basket.cpp "$here/../2026-12-01-new-user-languages/cases/basket.cpp" "$here/../2026-12-01-new-user-languages/tests/basket.cpp.sh"
run theme.css "$here/../2026-12-02-new-user-more/cases/theme.css" "$here/../2026-12-02-new-user-more/tests/theme.css.sh"
for v in before after; do node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out/$v" > "$out/$v/summary.md"; done
