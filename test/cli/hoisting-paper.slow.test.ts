/**
 * The hoisting paper's Fig. 3 and 4: an over-complicated "Hello world!" in C. HDD* cannot remove the
 * `if (1)` around the printf (every single removal breaks the program or its output); hoisting the
 * inner compoundStatement into the function body's place can. Needs ../shared's C grammar and gcc.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO, runWhittle, scratch } from "../helpers/cli.js";

const C_GRAMMAR = join(REPO, "..", "shared", "grammars", "c", "C.g4");
const HELLO = `#include <stdio.h>

int main() {
    if (1) {
        printf("Hello world!\\n");
    }
    return 0;
}
`;

function hasGcc(): boolean {
  try {
    execFileSync("gcc", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

test("Fig. 3/4 of the hoisting paper: HDD* keeps the if around the printf, HOIST*+HDD* removes it", async (t) => {
  if (!existsSync(C_GRAMMAR)) return t.skip("../shared/grammars/c/C.g4 not found");
  if (!hasGcc()) return t.skip("gcc not found");
  const dir = scratch();
  const input = join(dir, "hello.c");
  writeFileSync(input, HELLO);
  const check = join(dir, "prints-hello.sh");
  writeFileSync(check, '#!/bin/bash\ngcc -w -o prog "$1" 2>/dev/null && [ "$(./prog)" = "Hello world!" ]\n');
  chmodSync(check, 0o755);
  const env = { XDG_CACHE_HOME: join(dir, "cache") };
  const common = [input, "--grammar", C_GRAMMAR, "--start", "compilationUnit", "-q", "--test", check];

  const hdd = await runWhittle([...common, "--phase", "prune*", "-o", join(dir, "hdd.c")], { env });
  assert.equal(hdd.code, 0, hdd.stderr);
  const hddOut = readFileSync(join(dir, "hdd.c"), "utf8");
  assert.match(hddOut, /if\s*\(1\)/, `HDD* cannot remove the if:\n${hddOut}`);
  assert.match(hddOut, /printf\("Hello world!\\n"\)/);

  const hoisted = await runWhittle(
    [...common, "--phase", "hoist*", "--phase", "prune*", "-o", join(dir, "hoist.c")],
    {
      env,
    },
  );
  assert.equal(hoisted.code, 0, hoisted.stderr);
  const hoistOut = readFileSync(join(dir, "hoist.c"), "utf8");
  assert.doesNotMatch(hoistOut, /\bif\b/, `hoisting removes the if:\n${hoistOut}`);
  assert.match(hoistOut, /printf\("Hello world!\\n"\)/);
  assert.ok(hoistOut.replace(/\s/g, "").length < hddOut.replace(/\s/g, "").length);
});
