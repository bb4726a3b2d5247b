#!/usr/bin/env bash
# rustc reports a type mismatch (metadata only, written into the test directory)
rustc --edition 2021 --crate-type lib --emit=metadata -o meta.rmeta "$1" 2>&1 | grep -q "E0308"
