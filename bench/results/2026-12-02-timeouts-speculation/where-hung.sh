#!/usr/bin/env bash
# where-hung.sh DIR: runs each kept copy in DIR alone under node for 1.2 s; prints, tab-separated,
# the file, its bytes, and "ends" (with node's exit status) or "hang" with the JavaScript function
# V8's sampling profiler (--prof) saw most.
dir=$1; log=$(mktemp)
for f in $(ls "$dir" | sort); do
  rm -f "$log"
  timeout -s INT 1.2 node --prof --logfile="$log" --no-logfile-per-isolate "$dir/$f" >/dev/null 2>&1; rc=$?
  if [ $rc = 124 ]; then
    top=$(node --prof-process "$log" 2>/dev/null | grep -m1 ' JS: ' | sed 's/.*JS: [*^~]*//; s/ .*:\([0-9]*\):.*/@\1/')
    echo -e "$f\t$(wc -c < "$dir/$f")\thang\t$top"
  else
    echo -e "$f\t$(wc -c < "$dir/$f")\tends\t$rc"
  fi
done
rm -f "$log"
