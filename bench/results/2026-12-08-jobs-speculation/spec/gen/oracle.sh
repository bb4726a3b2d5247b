#!/usr/bin/env bash
node "$1" 2>&1 | grep -q "RangeError: Invalid array length"
