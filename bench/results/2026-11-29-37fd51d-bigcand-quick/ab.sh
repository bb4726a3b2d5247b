#!/bin/sh
# The by-hand A/B of c1afb9c (the error scan's byte offsets, the decode memo, one SHA-256 per
# candidate) against d71e28f, on the section's 1.8 MB JSON array: two runs each, alternating.
# Run in a directory with big.json and grep.sh as the section writes them; OLD and NEW are builds.
for i in 1 2; do
  for v in "$OLD" "$NEW"; do
    rm -f out-ab.json*
    s=$(date +%s.%N)
    node "$v/dist/src/cli/main.js" big.json -o out-ab.json -j 1 --timeout 30 -q -- ./grep.sh {}
    e=$(date +%s.%N)
    echo "$v $(echo "$e - $s" | bc) $(wc -c < out-ab.json)"
  done
done
