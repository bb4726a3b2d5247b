#!/usr/bin/env bash
# run.sh WHITTLE_MAIN OUT_DIR: each case of cases/ reduced by the zero-config default (as a new user
# types it: no --language, no -j, no --timeout), its test from tests/, stats and result in OUT_DIR.
# cases/openapi.yaml is written by make-openapi.mjs. Needs python3 with PyYAML, node; Cart.tsx and
# openapi.yaml use the repository's own tsc and yaml package.
set -u
main=$1; out=$2; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$(dirname "$main")/../../.." && pwd)
mkdir -p "$out"
for input in "$here"/cases/*; do
  name=$(basename "$input")
  rm -f "$out/$name.stats.json"
  node "$main" "$input" -o "$out/$name.reduced" -q --stats "$out/$name.stats.json" --test "$here/tests/$name.sh"
  echo "$name exit $?"
done
node "$here/../2026-12-01-new-user-languages/summary.mjs" "$out" > "$out/summary.md"
