#!/usr/bin/env bash
# Interesting iff running the candidate still crashes with the same TypeError.
# Match the exact message, not just "any error": a reducer happily turns one bug into another.
node "$1" 2>&1 | grep -q "Cannot read properties of undefined (reading 'total')"
