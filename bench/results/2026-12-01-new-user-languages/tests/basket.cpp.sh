#!/usr/bin/env bash
# g++ finds no operator= for an assignment
g++ -std=c++17 -fsyntax-only "$1" 2>&1 | grep -q "no match for .operator="
