#!/usr/bin/env bash
# the yaml package (as a CI lint step uses it) rejects a mapping that repeats a key
node -e 'require(process.env.WHITTLE_REPO + "/node_modules/yaml").parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$1" 2>&1 | grep -q "Map keys must be unique"
