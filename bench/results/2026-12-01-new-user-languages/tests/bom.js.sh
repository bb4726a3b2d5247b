#!/usr/bin/env bash
# node throws the error with its message
node "$1" 2>&1 | grep -q "boom 2"
