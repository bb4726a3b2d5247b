#!/usr/bin/env bash
# The zero-config default on every shared case with an oracle: non-whitespace characters of the
# result, tests, wall time, time in timed-out tests, syntax-filter skips, and per pass the tests and
# the bytes removed (from --stats). One run per case, one case at a time (-j as whittle chooses).
#   bench/scripts/efficiency.sh [OUT_DIR] [extra whittle options...]
# Needs ../shared beside the repository and a build (npm run build). Writes OUT_DIR/report.txt and,
# per case, the result, its --stats JSON and whittle's stderr; prints the report.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cases="$repo/../shared/bench/cases"
out=${1:-$(mktemp -d)}
shift || true
mkdir -p "$out"
: > "$out/report.txt"
for dir in "$cases"/*/; do
  name=$(basename "$dir")
  [ -x "$dir/oracle.sh" ] || [ -f "$dir/oracle.sh" ] || continue
  case $name in mock-*) continue ;; esac
  input=$(ls "$dir"/input.* | head -1)
  # The two 130 KB JavaScript cases run for many minutes: the large-input section's business.
  [ "$(wc -c < "$input")" -gt 65536 ] && continue
  ext=${input##*.}
  mkdir -p "$out/$name"
  set +e
  node "$repo/dist/src/cli/main.js" "$input" -o "$out/$name/result.$ext" --stats "$out/$name/stats.json" -q "$@" \
    -- bash "$dir/oracle.sh" {} 2> "$out/$name/stderr.txt"
  rc=$?
  bash "$dir/oracle.sh" "$out/$name/result.$ext" > /dev/null 2>&1
  recheck=$?
  set -e
  nws=$(tr -d ' \t\n\r\f\v' < "$out/$name/result.$ext" | wc -c)
  node -e '
    const [file, name, rc, nws, recheck] = process.argv.slice(1);
    const s = JSON.parse(require("fs").readFileSync(file, "utf8"));
    const passes = Object.entries(s.passes).map(([k, v]) => `${k} ${v.tests}t/${v.bytesRemoved}B`).join(", ");
    console.log(`${name}: exit ${rc}, result ${recheck === "0" ? "interesting" : "NOT INTERESTING"}, ${nws} non-ws chars, ${s.tests} tests, wall ${(s.wallMs / 1000).toFixed(1)} s, ${s.timedOutRuns} timed out (${(s.timeoutTotalMs / 1000).toFixed(1)} s), ${s.syntaxSkips} syntax skips | ${passes}`);
  ' "$out/$name/stats.json" "$name" "$rc" "$nws" "$recheck" | tee -a "$out/report.txt"
done
