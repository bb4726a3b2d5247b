#!/usr/bin/env bash
# javac reports a lossy conversion from double to int
javac -d classes "$1" 2>&1 | grep -q "possible lossy conversion from double to int"
