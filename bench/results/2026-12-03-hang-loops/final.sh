#!/bin/bash
cd /tmp/htmlrun && uptime > final.uptime && node /tmp/finb/dist/src/cli/main.js inv.html -o final.out.html --stats final.stats.json --events final.events.jsonl --test ./test.sh > run4.log 2>&1
cd /tmp/yamlab && uptime > final.uptime && node /tmp/finb/dist/src/cli/main.js input.js -o final.out.js --stats final.stats.json --events final.events.jsonl --max-time 10m -- ./oracle.sh {} > final.log 2>&1
