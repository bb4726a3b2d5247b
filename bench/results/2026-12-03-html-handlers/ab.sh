#!/bin/bash
# ab.sh BEFORE_DIST AFTER_DIST: the zero-config default on inv.html, each build once, one after the other.
for b in before:$1 after:$2; do
  name=${b%%:*}; dist=${b#*:}
  uptime > $name.uptime
  node "$dist/src/cli/main.js" inv.html -o $name.out.html --stats $name.stats.json --events $name.events.jsonl --test ./test.sh > $name.log 2>&1
  uptime >> $name.uptime
done
