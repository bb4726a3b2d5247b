#!/bin/bash
# run.sh TAG ENV... : one 10-minute run of wt-dev's build on js-yaml-flow-error
tag=$1; shift
cd /work/exp/s29/large
env "$@" node /work/wt-dev/dist/src/cli/main.js input.js -o out-$tag.js -j 2 --max-time 600s -q --events ev-$tag.jsonl --stats st-$tag.json -- /work/exp/s29/large/oracle.sh {}
echo "$tag exit $? nws $(tr -d ' \n\t\r' < out-$tag.js | wc -c) $(uptime)"
