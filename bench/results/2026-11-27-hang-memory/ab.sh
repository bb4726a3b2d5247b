#!/usr/bin/env bash
# A/B of two builds on the large JS cases: whittle -j 2 --max-time CAP, alternating builds per case.
# usage: ab.sh OUTDIR CAP_S "name:path ..." case...
set -u
out=$1; cap=$2; builds=$3; shift 3
mkdir -p "$out"
i=0
for c in "$@"; do
  order=($builds)
  if (( i % 2 == 1 )); then order=($(printf '%s\n' "${order[@]}" | tac)); fi
  i=$((i+1))
  for b in "${order[@]}"; do
    name=${b%%:*}; path=${b#*:}
    d="$out/$c-$name"; rm -rf "$d"; mkdir -p "$d"
    cp /work/shared/bench/cases/$c/input.js "$d/input.js"
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    node "$path/dist/src/cli/main.js" "$d/input.js" -j 2 --max-time ${cap}s -o "$d/out.js" --stats "$d/stats.json" -- bash /work/shared/bench/cases/$c/oracle.sh {} > "$d/log.txt" 2>&1 &
    pid=$!
    : > "$d/sizes.txt"
    while kill -0 $pid 2>/dev/null; do
      sleep 5
      now=$(date +%s.%N)
      if [ -f "$d/out.js" ]; then echo "$(echo "$now - $start" | bc) $(tr -d ' \t\n\r' < "$d/out.js" | wc -c)" >> "$d/sizes.txt"; fi
    done
    wait $pid; echo "exit $?" >> "$d/log.txt"
    end=$(date +%s.%N)
    echo "$c $name load $load wall $(echo "$end - $start" | bc)" >> "$out/runs.txt"
  done
done
