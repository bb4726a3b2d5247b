#!/usr/bin/env bash
# ab.sh WHITTLE_MAIN OUT_DIR: the twelve new-user cases (../2026-12-01-new-user-languages,
# ../2026-12-02-new-user-more) reduced by the zero-config default, each twice, one run after the
# other, the order alternating from case to case: WX_GLYPH_PROBE=0 (the glyph pass without its
# word probes, as before) and WX_GLYPH_PROBE=1. Results and stats in OUT_DIR/{0,1}/.
set -u
main=$1; out=$2; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$(dirname "$main")/../../.." && pwd)
mkdir -p "$out/0" "$out/1"
order=(0 1)
for set in 2026-12-01-new-user-languages 2026-12-02-new-user-more; do
  for input in "$here/../$set"/cases/*; do
    name=$(basename "$input")
    for v in "${order[@]}"; do
      rm -f "$out/$v/$name.stats.json"
      WX_GLYPH_PROBE=$v node "$main" "$input" -o "$out/$v/$name.reduced" -q --stats "$out/$v/$name.stats.json" --test "$here/../$set/tests/$name.sh"
      echo "$name $v exit $? load $(cut -d' ' -f1 /proc/loadavg)"
    done
    order=("${order[1]}" "${order[0]}")
  done
done
for v in 0 1; do node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out/$v" > "$out/$v/summary.md"; done
