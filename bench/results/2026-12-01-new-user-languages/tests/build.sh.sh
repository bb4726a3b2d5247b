#!/usr/bin/env bash
# bash fails on an arithmetic expression (or an unset variable)
bash "$1" 2>&1 | grep -q "value too great for base\\|syntax error: operand expected\\|unbound variable\\|invalid arithmetic"
