#!/usr/bin/env bash
# a manifest checker (PyYAML) sums the container ports of every Deployment and fails on a named one
python3 - "$1" <<'PY' 2>&1 | grep -q "invalid literal for int() with base 10: 'metrics'"
import sys, yaml
total = 0
for doc in yaml.safe_load_all(open(sys.argv[1])):
    if not doc or doc.get("kind") != "Deployment":
        continue
    for c in doc["spec"]["template"]["spec"]["containers"]:
        for p in c.get("ports", []):
            total += int(p["containerPort"])
print(total)
PY
