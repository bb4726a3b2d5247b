#!/usr/bin/env bash
# recheck.sh WHITTLE_MAIN: gives every result in new-user/ to its case's test once more (the tests of
# ../2026-12-01-new-user-languages and ../2026-12-02-new-user-more); one line a case, 0 = interesting.
set -u
main=$1; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$(dirname "$main")/../../.." && pwd)
for pair in languages:2026-12-01-new-user-languages more:2026-12-02-new-user-more; do
  out=$here/new-user/${pair%%:*}; tests=$here/../${pair#*:}/tests
  for r in "$out"/*.reduced; do
    name=$(basename "$r" .reduced)
    dir=$(mktemp -d); cp "$r" "$dir/$name"
    (cd "$dir" && bash "$tests/$name.sh" "$dir/$name" >/dev/null 2>&1); echo "$name $?"
    rm -rf "$dir"
  done
done
