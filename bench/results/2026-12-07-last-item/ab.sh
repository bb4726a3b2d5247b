#!/usr/bin/env bash
# ab.sh BEFORE_MAIN AFTER_MAIN OUT_DIR: the new-user cases whose tree changes with the fix (theme.css,
# deploy.yaml, openapi.yaml, shapes.rs; ../2026-12-01-new-user-languages, ../2026-12-02-new-user-more)
# reduced by the zero-config default with each build, one run after the other, the order alternating
# from case to case. Results and stats in OUT_DIR/{before,after}/.
set -u
before=$1; after=$2; out=$3; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$here/../../.." && pwd)
mkdir -p "$out/before" "$out/after"
order=(before after)
for input in "$here"/../2026-12-01-new-user-languages/cases/shapes.rs "$here"/../2026-12-02-new-user-more/cases/{theme.css,deploy.yaml,openapi.yaml}; do
  name=$(basename "$input"); tests=$(dirname "$(dirname "$input")")/tests
  for v in "${order[@]}"; do
    if [ "$v" = before ]; then main=$before; else main=$after; fi
    rm -f "$out/$v/$name.stats.json"
    node "$main" "$input" -o "$out/$v/$name.reduced" -q --stats "$out/$v/$name.stats.json" --test "$tests/$name.sh"
    echo "$name $v exit $? load $(cut -d' ' -f1 /proc/loadavg)"
  done
  order=("${order[1]}" "${order[0]}")
done
for v in before after; do node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out/$v" > "$out/$v/summary.md"; done
