/**
 * Issue 10, Java, the scripting languages and the data formats (Java, Python, Bash, PHP, JSON, YAML):
 * each built-in language's real-looking input reduced with a real oracle; the grammar-aware result
 * is interesting and smaller than line+char ddmin's. The machinery is in ../helpers/real-oracles.ts.
 */
import {
  javacServer,
  needs,
  needsPython,
  oneError,
  PYTHON,
  pythonCheck,
  testCases,
  type Case,
} from "../helpers/real-oracles.js";

const CASES: Case[] = [
  {
    language: "java",
    file: "Grades.java",
    missing: needs("java", "javac"),
    input: String.raw`import java.util.ArrayList;
import java.util.List;

/** Averages of students' grades. */
public class Grades {
  private final List<Double> marks = new ArrayList<>();

  void add(double mark) {
    marks.add(mark);
  }

  double average() {
    double sum = 0;
    for (double m : marks) {
      sum += m;
    }
    return marks.isEmpty() ? 0 : sum / marks.size();
  }

  public static void main(String[] args) {
    Grades g = new Grades();
    g.add(4.5);
    g.add(5.0);
    int rounded = g.average() * 10;
    System.out.println("average x10: " + rounded);
  }
}
`,
    oracle: async (dir, cleanup) =>
      oneError(
        await javacServer(dir, cleanup),
        ": error: ",
        "error: incompatible types: possible lossy conversion from double to int",
      ),
  },
  {
    language: "python",
    file: "ledger.py",
    missing: needsPython(),
    input: String.raw`"""Keeps a ledger of account entries and prints a monthly statement."""

from collections import defaultdict


class Account:
    def __init__(self, owner, currency="EUR"):
        self.owner = owner
        self.currency = currency
        self.entries = []

    def deposit(self, amount, note=""):
        self.entries.append((amount, note))

    def withdraw(self, amount, note=""):
        if amount > self.balance():
            raise ValueError("insufficient funds")
        self.entries.append((-amount, note))

    def balance(self):
        return sum(amount for amount, _ in self.entries)

    def statement(self):
        lines = [f"{self.owner} ({self.currency})"]
        for amount, note in self.entires:
            lines.append(f"{amount:>8.2f} {note}")
        return "\n".join(lines)


def by_owner(accounts):
    groups = defaultdict(list)
    for account in accounts:
        groups[account.owner].append(account)
    return groups


ada = Account("ada")
ada.deposit(120, "salary")
ada.withdraw(20, "books")
print(ada.statement())
print(len(by_owner([ada])))
`,
    // The last line python prints is the exception (newer versions add ". Did you mean: …?").
    oracle: () =>
      [
        `out=$(timeout 5 '${PYTHON}' -S "$1" 2>&1 >/dev/null)`,
        `[[ \${out##*$'\\n'} == "AttributeError: 'Account' object has no attribute 'entires'"* ]]`,
      ].join("\n"),
  },

  {
    language: "bash",
    file: "backup.sh",
    missing: needs("bash"),
    // No "/", "." or "~" in the script: whatever the reducer makes of it runs with builtins only, in
    // the candidate's own temporary directory.
    input: String.raw`# Rotates backups: keeps the newest few, retrying the copy a limited number of times
set -u

keep=3
targets=(alpha beta gamma)
declare -A sizes=([alpha]=120 [beta]=80 [gamma]=200)

log() {
  printf '%s %s\n' "[backup]" "$*"
}

copy_one() {
  local name=$1
  local attempt=0
  while [ "$attempt" -lt "$retry_limit" ]; do
    attempt=$((attempt + 1))
    if [ "$attempt" -gt 1 ]; then
      log "retrying $name (attempt $attempt)"
    fi
    return 0
  done
  return 1
}

total=0
for t in "$${"{"}targets[@]}"; do
  case "$t" in
    alpha | beta) log "copying $t" ;;
    *) log "copying $t (large)" ;;
  esac
  total=$((total + $${"{"}sizes[$t]}))
  copy_one "$t" || log "failed: $t"
done

log "copied $total units, keeping $keep"
`,
    oracle: () =>
      [
        `bash -n "$1" 2>/dev/null || exit 1`,
        `case $1 in */*) cd "\${1%/*}" || exit 1 ;; esac`,
        `out=$(timeout 5 env -i PATH=/nonexistent /bin/bash --norc --noprofile "$1" 2>&1 >/dev/null)`,
        `[[ $out == *"retry_limit: unbound variable"* ]]`,
      ].join("\n"),
  },
  {
    language: "php",
    file: "cart.php",
    missing: () => needs("php")() ?? "no PHP case yet: php was not installed where these were written",
    input: "<?php\n",
    oracle: () => "exit 1",
  },
  {
    language: "json",
    file: "deploy.json",
    missing: needsPython(),
    input: String.raw`{
  "name": "shop-backend",
  "version": "2.4.1",
  "owners": ["ada", "grace"],
  "regions": {
    "eu": { "zones": ["a", "b"], "primary": true },
    "us": { "zones": ["c"], "primary": false }
  },
  "services": [
    {
      "name": "api",
      "image": "shop/api:2.4.1",
      "replicas": 3,
      "retries": 5,
      "env": { "LOG_LEVEL": "info", "CACHE": "redis" }
    },
    {
      "name": "worker",
      "image": "shop/worker:2.4.1",
      "replicas": 2,
      "retries": -1,
      "env": { "LOG_LEVEL": "debug" }
    },
    {
      "name": "cron",
      "image": "shop/cron:2.4.0",
      "replicas": 1,
      "retries": 0,
      "schedule": "*/5 * * * *"
    }
  ],
  "healthcheck": { "path": "/health", "interval": 10, "timeout": 2 },
  "features": { "search": true, "recommendations": false }
}
`,
    oracle: pythonCheck(`import json


def check(path):
    with open(path) as file:
        d = json.load(file)
    return isinstance(d, dict) and isinstance(d.get("services"), list) and any(
        isinstance(s, dict) and type(s.get("retries")) is int and s["retries"] < 0 for s in d["services"]
    )
`),
  },
  {
    language: "yaml",
    file: "ci.yaml",
    missing: needsPython("yaml"),
    input: String.raw`# Continuous integration for the shop backend.
name: ci
on:
  push:
    branches: [main]
  pull_request: {}

env:
  NODE_VERSION: "20"
  CACHE_KEY: shop-deps-v3

jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: npm ci
      - name: Lint
        run: npm run lint

  test:
    runs-on: ubuntu-latest
    needs: [lint]
    strategy:
      matrix:
        node: [18, 20]
    steps:
      - uses: actions/checkout@v4
      - name: Install
        run: npm ci
      - name: Unit tests
        run: npm test -- --coverage
        continue-on-error: true
      - name: Upload coverage
        uses: actions/upload-artifact@v4
        with:
          name: coverage
          path: coverage/

  deploy:
    runs-on: ubuntu-latest
    needs: [test]
    if: github.ref == 'refs/heads/main'
    steps:
      - run: ./scripts/deploy.sh production
`,
    oracle: pythonCheck(`import yaml


def check(path):
    with open(path) as file:
        d = yaml.safe_load(file)
    jobs = d.get("jobs") if isinstance(d, dict) else None
    return isinstance(jobs, dict) and any(
        isinstance(j, dict) and isinstance(j.get("steps"), list) and any(
            isinstance(s, dict) and s.get("continue-on-error") is True and "test" in str(s.get("run", ""))
            for s in j["steps"])
        for j in jobs.values())
`),
  },
];

testCases(CASES);
