#!/usr/bin/env bash
# tsc (the project's own TypeScript) reports TS2322
"$WHITTLE_REPO/node_modules/.bin/tsc" --noEmit --strict "$1" 2>&1 | grep -q "TS2322"
