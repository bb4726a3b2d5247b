#!/usr/bin/env bash
# tsc (the project's own TypeScript) reports that a string is not assignable to a boolean
"$WHITTLE_REPO/node_modules/.bin/tsc" --noEmit --strict --jsx react --jsxFactory h "$1" 2>&1 | grep -q "TS2322: Type 'string.*' is not assignable to type 'boolean"
