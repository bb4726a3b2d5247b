#!/usr/bin/env bash
out=$(python3 "$1" 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [[ "$out" == *"error: argument --beta: not allowed with argument --alpha"* ]]
