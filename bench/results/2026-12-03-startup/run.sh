#!/bin/sh
# 5 runs each of: --version; json-obj-arr-87 with a 0.2 s test at -j 1 and -j 8. Quiet machine.
set -e
here=$(cd "$(dirname "$0")" && pwd)
main=${WHITTLE_MAIN:-/work/main/dist/src/cli/main.js}
w=$(mktemp -d)
cp /work/shared/bench/cases/json-obj-arr-87/input.json "$w/in.json"
printf '#!/bin/sh\nsleep 0.2\ngrep -q 87 "$1"\n' > "$w/t.sh"; chmod +x "$w/t.sh"
uptime
for i in 1 2 3 4 5; do
  s=$(date +%s%N); node "$main" --version >/dev/null; e=$(date +%s%N); echo "{\"version_ms\":$(( (e - s) / 1000000 ))}"
  (cd "$w" && node "$here/time-run.cjs" "$main" in.json "$w/t.sh" -j 1 | sed 's/^/{"j":1,/; s/,{/,/')
  (cd "$w" && node "$here/time-run.cjs" "$main" in.json "$w/t.sh" -j 8 | sed 's/^/{"j":8,/; s/,{/,/')
done
uptime
rm -rf "$w"
