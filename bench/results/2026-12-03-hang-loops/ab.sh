#!/bin/bash
# ab.sh: js-yaml-flow-error, 10 minutes each, the old build then the new (or the reverse with REV=1).
set -u
cd /tmp/yamlab
cp /work/shared/bench/cases/js-yaml-flow-error/input.js /work/shared/bench/cases/js-yaml-flow-error/oracle.sh .
order="old new"; [ "${REV:-0}" = 1 ] && order="new old"
for b in $order; do
  uptime > $b.uptime
  node /tmp/${b}b/dist/src/cli/main.js input.js -o $b.out.js --stats $b.stats.json --events $b.events.jsonl --max-time 10m -- ./oracle.sh {} > $b.log 2>&1
done
