/**
 * INPUT "-": whittle reads the whole input from stdin, and the result goes to -o FILE or to a new
 * stdin.reduced in the current directory (never over an existing file); --language (or a #! line)
 * chooses the language; --in-place is refused.
 */
import assert from "node:assert/strict";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EXIT } from "../../src/cli/exit.js";
import { FIXTURES, runWhittle, scratch } from "../helpers/cli.js";

const MOCK_INPUT = readFileSync(join(FIXTURES, "mock", "input-100.txt"));
const ORACLE_C = join(FIXTURES, "mock", "oracle-c.sh");

/** Example C's minimal result: its six needed elements, one per line. */
const EXAMPLE_C = "1\n2\n3\n4\n6\n8\n";

test("whittle - reads the input from stdin and writes the result to stdin.reduced in the current directory", async () => {
  const dir = scratch();
  const run = await runWhittle(["-", "--atom=line", "--test", ORACLE_C], { cwd: dir, stdin: MOCK_INPUT });
  assert.equal(run.code, EXIT.done, run.stderr);
  assert.equal(readFileSync(join(dir, "stdin.reduced"), "utf8"), EXAMPLE_C);
  assert.match(run.stderr, /stdin: 290 B, interesting/);
  assert.match(run.stderr, /Result in stdin\.reduced/);
  assert.deepEqual(readdirSync(dir), ["stdin.reduced"]);
});

test("an existing stdin.reduced is never overwritten: the result takes the next free name", async () => {
  const dir = scratch();
  writeFileSync(join(dir, "stdin.reduced"), "precious\n");
  writeFileSync(join(dir, "stdin.reduced.1"), "precious too\n");
  const run = await runWhittle(["-", "--atom=line", "-q", "--test", ORACLE_C], {
    cwd: dir,
    stdin: MOCK_INPUT,
  });
  assert.equal(run.code, EXIT.done, run.stderr);
  assert.equal(readFileSync(join(dir, "stdin.reduced"), "utf8"), "precious\n");
  assert.equal(readFileSync(join(dir, "stdin.reduced.1"), "utf8"), "precious too\n");
  assert.equal(readFileSync(join(dir, "stdin.reduced.2"), "utf8"), EXAMPLE_C);
});

test("whittle - -o FILE writes the result to FILE; a large input is read whole before the reduction", async () => {
  const dir = scratch();
  // 2 MB, far more than one pipe buffer: every byte must be read before the initial check.
  const lines = Array.from({ length: 100_000 }, (_, i) => `${i === 77_777 ? "KEEP" : "pad"} ${i}\n`);
  const input = lines.join("");
  const oracle = join(dir, "keep.sh");
  writeFileSync(oracle, `#!/usr/bin/env bash\n[ "$(wc -l < "$1")" -ge 1 ] && grep -qx 'KEEP 77777' "$1"\n`);
  chmodSync(oracle, 0o755);
  const check = join(dir, "first.sh");
  // The initial check sees the whole input.
  writeFileSync(
    check,
    `#!/usr/bin/env bash\nif [ "$(wc -c < "$1")" = ${Buffer.byteLength(input)} ]; then echo whole > '${join(dir, "saw-whole")}'; fi\nexec '${oracle}' "$1"\n`,
  );
  chmodSync(check, 0o755);
  const output = join(dir, "result.txt");
  const run = await runWhittle(["-", "--atom=line", "-o", output, "--test", check], {
    cwd: dir,
    stdin: input,
  });
  assert.equal(run.code, EXIT.done, run.stderr);
  assert.equal(readFileSync(output, "utf8"), "KEEP 77777\n");
  assert.equal(readFileSync(join(dir, "saw-whole"), "utf8"), "whole\n");
  assert.ok(!readdirSync(dir).some((name) => name.startsWith("stdin")), "no stdin.reduced beside -o");
});

test("whittle - --language c reduces along C's syntax; the test sees stdin.c, the result is stdin.reduced.c", async () => {
  const dir = scratch();
  const names = join(dir, "names.log");
  const oracle = join(dir, "t.sh");
  writeFileSync(oracle, `#!/usr/bin/env bash\nbasename "$1" >> '${names}'\ngrep -q 'x = 150' "$1"\n`);
  chmodSync(oracle, 0o755);
  const source = "int f(int a) { return a + 1; }\nint main(void) {\n  int x = 150;\n  return f(x);\n}\n";
  const run = await runWhittle(["-", "--language", "c", "--test", oracle], { cwd: dir, stdin: source });
  assert.equal(run.code, EXIT.done, run.stderr);
  assert.match(run.stderr, /reducing with ddmin:hidden, hdd:/, "the tree phases of a grammar");
  const result = readFileSync(join(dir, "stdin.reduced.c"), "utf8");
  assert.match(result, /x = 150/);
  assert.ok(result.length < source.length);
  assert.deepEqual([...new Set(readFileSync(names, "utf8").split("\n").filter(Boolean))], ["stdin.c"]);
});

test("without --language, a #! line chooses the language of stdin's input", async () => {
  const dir = scratch();
  const source = "#!/usr/bin/env python3\nimport os\nx = 150\nprint(x)\n";
  const oracle = join(dir, "t.sh");
  writeFileSync(oracle, "#!/usr/bin/env bash\ngrep -q 'x = 150' \"$1\"\n");
  chmodSync(oracle, 0o755);
  const run = await runWhittle(["-", "--test", oracle], { cwd: dir, stdin: source });
  assert.equal(run.code, EXIT.done, run.stderr);
  assert.match(run.stderr, /stdin is Python by its #! line: reducing along its syntax/);
  assert.match(readFileSync(join(dir, "stdin.reduced"), "utf8"), /x = 150/);
});

test("whittle - --in-place is a usage error; a test that rejects stdin's input shows how to reproduce it", async () => {
  const dir = scratch();
  const inPlace = await runWhittle(["-", "--in-place", "--test", ORACLE_C], { cwd: dir, stdin: MOCK_INPUT });
  assert.equal(inPlace.code, EXIT.usage);
  assert.match(inPlace.stderr, /--in-place cannot reduce stdin \(-\)/);

  const rejected = await runWhittle(["-", "--atom=line", "--test", ORACLE_C], { cwd: dir, stdin: "1\n2\n" });
  assert.equal(rejected.code, EXIT.notInteresting);
  assert.match(rejected.stderr, /it must exit 0 on the input from stdin/);
  assert.match(rejected.stderr, /d=\$\(mktemp -d\) && cat > "\$d"\/stdin && /);
  assert.deepEqual(readdirSync(dir), [], "nothing written");
});
