#!/usr/bin/env bash
python3 "$1" 2>&1 | grep -q "ZeroDivisionError: Fraction(1, 0)"
