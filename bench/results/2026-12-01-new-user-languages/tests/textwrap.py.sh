#!/usr/bin/env bash
# CPython raises the ValueError of textwrap for width 0
python3 "$1" 2>&1 | grep -q "invalid width 0"
