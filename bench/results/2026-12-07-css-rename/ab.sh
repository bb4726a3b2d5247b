#!/usr/bin/env bash
# ab.sh BEFORE_MAIN AFTER_MAIN OUT_DIR: theme.css (../2026-12-02-new-user-more) reduced by the
# zero-config default with each build, twice, alternating (before, after, after, before).
set -u
before=$1; after=$2; out=$3; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$here/../../.." && pwd)
cases=$here/../2026-12-02-new-user-more
run=0
for v in before after after before; do
  run=$((run + 1)); mkdir -p "$out/$v$run"
  if [ "$v" = before ]; then main=$before; else main=$after; fi
  node "$main" "$cases/cases/theme.css" -o "$out/$v$run/theme.css.reduced" -q --stats "$out/$v$run/theme.css.stats.json" --test "$cases/tests/theme.css.sh"
  echo "run $run $v exit $? load $(cut -d' ' -f1 /proc/loadavg)"
  node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out/$v$run" > "$out/$v$run/summary.md"
done
