#!/usr/bin/env bash
# jobs.sh WHITTLE_MAIN OUT_DIR [VARIANTS...]: every shared case with an oracle (but the two 130 KB
# JavaScript cases and the mocks) and the six generated JavaScript programs
# (../2026-11-27-timeout-floor/gen.mjs 1..6, ../2026-12-03-literal-early/oracle.sh), reduced by the
# zero-config default once per variant, one run after the other, the order rotating from case to case.
# A variant is NAME=ARGS (ARGS added to whittle's command line, e.g. j1="-j 1"); WX_ environment
# variables may be part of ARGS as VAR:VALUE words. Results and stats in OUT_DIR/NAME/.
set -u
main=$1; out=$2; shift 2; variants=("$@")
here=$(cd "$(dirname "$0")" && pwd)
shared=$(cd "$here/../../../../shared/bench/cases" && pwd)
export WHITTLE_REPO=$(cd "$here/../../.." && pwd)
for v in "${variants[@]}"; do mkdir -p "$out/${v%%=*}"; done
run() { # name input test
  for v in "${variants[@]}"; do
    name=${v%%=*}; args=(); envs=()
    for w in ${v#*=}; do case $w in WX_*:*) envs+=("${w%%:*}=${w#*:}") ;; *) args+=("$w") ;; esac; done
    rm -f "$out/$name/$1.stats.json"
    s=$(date +%s.%N)
    env "${envs[@]}" node "$main" "$2" -o "$out/$name/$1.reduced" -q --stats "$out/$name/$1.stats.json" "${args[@]}" --test "$3"
    rc=$?
    echo "$1 $name exit $rc wall $(echo "$(date +%s.%N) - $s" | bc) load $(cut -d' ' -f1 /proc/loadavg)"
  done
  variants=("${variants[@]:1}" "${variants[0]}")
}
for d in "$shared"/*/; do
  c=$(basename "$d")
  [ -f "$d/oracle.sh" ] || continue
  case $c in js-yaml-flow-error|js-esquery-syntax-error|mock-*) continue ;; esac
  run "$c" "$(ls "$d"/input.*)" "$d/oracle.sh"
done
gen=$here/../2026-11-27-timeout-floor/gen.mjs
mkdir -p "$out/gen"
cp "$here/../2026-12-03-literal-early/oracle.sh" "$out/gen/oracle.sh"
for i in 1 2 3 4 5 6; do
  node "$gen" $i > "$out/gen/g$i.js"
  run "g$i.js" "$out/gen/g$i.js" "$out/gen/oracle.sh"
done
