#!/usr/bin/env bash
cd /tmp/ty; : > classes.tsv
for f in $(ls hung | sort); do
  rm -f p.log
  timeout -s INT 1.2 node --prof --logfile=p.log --no-logfile-per-isolate hung/$f >/dev/null 2>&1; rc=$?
  if [ $rc = 124 ]; then
    top=$(node --prof-process p.log 2>/dev/null | grep -m1 ' JS: ' | sed 's/.*JS: [*^~]*//; s/ .*:\([0-9]*\):.*/@\1/')
    echo -e "$f\t$(wc -c < hung/$f)\thang\t$top" >> classes.tsv
  else
    echo -e "$f\t$(wc -c < hung/$f)\tends\t$rc" >> classes.tsv
  fi
done
echo done >> classes.tsv
