#!/bin/bash
# The page still throws the same TypeError when Chromium loads it.
f=$(realpath "$1")
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
err=$(timeout 20 chromium --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --user-data-dir="$d" --dump-dom "file://$f" 2>&1 >/dev/null)
grep -q "Uncaught TypeError: Cannot read properties of undefined (reading 'level')" <<<"$err"
