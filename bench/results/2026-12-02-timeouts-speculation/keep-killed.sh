#!/usr/bin/env bash
# keep-killed.sh FILE: the case's oracle.sh (beside this script's working directory: ./oracle.sh), keeping
# a copy of FILE in $KEEP (default ./killed) until the test ends: the copies left are tests that were killed.
keep=${KEEP:-$PWD/killed}; mkdir -p "$keep"
copy=$keep/$(date +%s%N).js
cp "$1" "$copy"
./oracle.sh "$1"; rc=$?
rm -f "$copy"
exit $rc
