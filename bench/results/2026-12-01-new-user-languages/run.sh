#!/usr/bin/env bash
# run.sh WHITTLE_MAIN OUT_DIR: each case of cases/ reduced by the zero-config default (as a new user
# types it: no --language, no -j, no --timeout), its test from tests/, stats and result in OUT_DIR;
# then textwrap.py, made from this machine's CPython 3.11 textwrap module and one call that fails.
# Needs rustc, javac, g++, python3, node; queue.ts uses the repository's own tsc.
set -u
main=$1; out=$2; here=$(cd "$(dirname "$0")" && pwd)
export WHITTLE_REPO=$(cd "$(dirname "$main")/../../.." && pwd)
mkdir -p "$out"
(cat /usr/lib/python3.11/textwrap.py; printf '\nprint(wrap("hello world", width=0))\n') > "$out/textwrap.py"
for input in "$here"/cases/* "$out/textwrap.py"; do
  name=$(basename "$input")
  rm -f "$out/$name.stats.json"
  node "$main" "$input" -o "$out/$name.reduced" -q --stats "$out/$name.stats.json" --test "$here/tests/$name.sh"
  echo "$name exit $?"
done
node "$here/summary.mjs" "$out" > "$out/summary.md"
