#!/usr/bin/env bash
# CPython raises ZeroDivisionError
python3 "$1" 2>&1 | grep -q ZeroDivisionError
