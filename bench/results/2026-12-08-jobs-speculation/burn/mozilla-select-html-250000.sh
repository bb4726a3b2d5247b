#!/usr/bin/env bash
awk "BEGIN{for(i=0;i<250000;i++)s+=i}"
exec /work/shared/bench/cases/mozilla-select-html/oracle.sh "$1"
