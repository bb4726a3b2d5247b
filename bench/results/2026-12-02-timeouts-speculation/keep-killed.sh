#!/usr/bin/env bash
# keep a copy of the candidate until the test ends; copies left behind are tests that were killed
d=/tmp/ty/hung; mkdir -p $d
id=$(date +%s%N)
cp "$1" $d/$id.js
/tmp/ty/oracle.sh "$1"; rc=$?
rm -f $d/$id.js
exit $rc
