/**
 * Config files through the real command: found from the input's directory upward, in package.json
 * too, named by --config or skipped with --no-config; the command line wins; what is wrong with a
 * file is exit 2 naming the file and the key; --print-config tells where each setting came from.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FIXTURES, MAIN, REPO, runWhittle, scratch } from "../helpers/cli.js";

/**
 * A project: the config file at its root (written by the caller), a test script check.sh there that
 * wants "BUG" (and leaves a mark in ran/ when it runs), and the input two directories down.
 */
function project(): { dir: string; input: string; ran: string } {
  const dir = scratch();
  mkdirSync(join(dir, "cases", "deep"), { recursive: true });
  const input = join(dir, "cases", "deep", "in.txt");
  writeFileSync(input, "a\nxBUGx\nc\n");
  const ran = join(dir, "ran");
  writeFileSync(join(dir, "check.sh"), `#!/bin/sh\ntouch '${ran}'\ngrep -q BUG "$1"\n`);
  chmodSync(join(dir, "check.sh"), 0o755);
  return { dir, input, ran };
}

const write = (path: string, value: unknown) =>
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
const result = (input: string) => readFileSync(input.replace(/\.txt$/, ".reduced.txt"), "utf8");

test("a config file in a parent directory of the input is found; its relative paths are from its directory", async () => {
  const { dir, input } = project();
  write(join(dir, "whittle.config.json"), {
    test: ["./check.sh", "{}"],
    atom: "line",
    jobs: 1,
    stats: "stats.json",
  });
  // Run from elsewhere: ./check.sh and stats.json can only be the config file's neighbours.
  const run = await runWhittle([input, "-q"], { cwd: REPO });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(result(input), "xBUGx\n", "lines only (atom: line)");
  const stats = JSON.parse(readFileSync(join(dir, "stats.json"), "utf8")) as { options: { atom: string } };
  assert.equal(stats.options.atom, "line");
});

test("a flag of the command line beats the file, and a test command on the command line replaces the file's", async () => {
  const { dir, input } = project();
  write(join(dir, ".whittlerc"), { test: ["./missing.sh"], atom: "line" });
  const run = await runWhittle([input, "-q", "--atom", "char", "--", join(dir, "check.sh")]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(result(input), "BUG");
});

test('a "whittle" key in package.json is a config file; a package.json without it is passed over', async () => {
  const { dir, input } = project();
  write(join(dir, "package.json"), { name: "p", whittle: { test: ["./check.sh"], atom: "line" } });
  write(join(dir, "cases", "package.json"), { name: "inner" });
  const run = await runWhittle([input, "-q"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(result(input), "xBUGx\n");
});

test("a package.json that does not parse is passed over in the search: it may be the input itself", async () => {
  const { dir, input } = project();
  const broken = join(dir, "cases", "deep", "package.json");
  writeFileSync(broken, '{"name": "p",, BUG\n');
  write(join(dir, "cases", "package.json"), [1, 2]);
  const run = await runWhittle([broken, "-q", "--language", "none", "--", join(dir, "check.sh")]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(readFileSync(join(dir, "cases", "deep", "package.reduced.json"), "utf8"), "BUG");
  void input;
});

test("--config FILE reads that file and searches for no other", async () => {
  const { dir, input } = project();
  write(join(dir, "whittle.config.json"), { bogus: 1 });
  mkdirSync(join(dir, "conf"));
  write(join(dir, "conf", "settings.json"), { test: ["../check.sh", "{}"], atom: "line" });
  const run = await runWhittle([input, "-q", "--config", join(dir, "conf", "settings.json")]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(result(input), "xBUGx\n", "the test ../check.sh is found from conf/");

  const missing = await runWhittle([input, "--config", join(dir, "none.json")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read the config file .*none\.json: no such file/);
});

test("--no-config reads no config file, and cannot be combined with --config", async () => {
  const { dir, input } = project();
  write(join(dir, "whittle.config.json"), { bogus: 1, atom: "line" });
  const run = await runWhittle([input, "-q", "--no-config", "--", join(dir, "check.sh")]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(result(input), "BUG", "the file's atom is not used");
  const both = await runWhittle([input, "--no-config", "--config", "x.json", "--", "true"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--config and --no-config cannot be used together/);
});

test("unknown keys, wrong types and invalid JSON are usage errors naming the file and the key", async () => {
  const { dir, input, ran } = project();
  const file = join(dir, "whittle.config.json");
  const cases: [unknown, RegExp][] = [
    [
      { splitFactor: 3 },
      /unknown key "splitFactor": keys are written as on the command line, "split-factor"/,
    ],
    [{ "no-squeeze": true }, /unknown key "no-squeeze": write "squeeze": false/],
    [{ j: 2 }, /unknown key "j": keys are the long names, "jobs"/],
    [{ frobnicate: 2 }, /unknown key "frobnicate"/],
    [{ input: "x.txt" }, /"input" is not a setting/],
    [{ "dd-star": "no" }, /"dd-star" must be true or false, not string/],
    [{ phase: ["line", 3] }, /"phase" must be a string or a list of strings, not a list holding number/],
    [{ jobs: 0 }, /key "jobs": option '-j, --jobs <n>' argument '0' is invalid/],
    [{ quiet: true, verbose: true }, /"quiet" and "verbose" cannot be combined/],
    [{ language: "c", grammar: ["G.g4"] }, /"language" and "grammar" cannot be combined/],
    [{ test: "./check.sh" }, /"test" must be a non-empty list of strings/],
    [["atom"], /must hold a JSON object of settings, not a list/],
    ['{"atom": "line",}', /invalid JSON/],
    ["", /empty/],
  ];
  for (const [content, message] of cases) {
    write(file, content);
    const run = await runWhittle([input, "--", "true"]);
    assert.equal(run.code, 2, JSON.stringify(content));
    assert.ok(run.stderr.includes(`config file ${file}`), run.stderr);
    assert.match(run.stderr, message);
  }
  rmSync(file);
  mkdirSync(file);
  const directory = await runWhittle([input, "--", "true"]);
  assert.equal(directory.code, 2);
  assert.match(directory.stderr, new RegExp(`cannot read the config file ${file}: a directory`));
  assert.ok(!existsSync(ran), "no test ran");
});

test("--print-config prints each setting and where it came from, and runs no test", async () => {
  const { dir, input, ran } = project();
  const file = join(dir, "whittle.config.json");
  write(file, {
    test: ["./check.sh", "{}"],
    atom: "line",
    phase: ["line", "char"],
    quiet: true,
    stats: "s.json",
  });
  const run = await runWhittle([input, "--print-config", "-j", "3", "--phase", "char", "-v"]);
  assert.equal(run.code, 0, run.stderr);
  const out = run.stdout.toString();
  const row = (key: string, value: string, source: string) =>
    assert.match(out, new RegExp(`^${key} +${value.replace(/[[\]]/g, "\\$&")} +${source}$`, "m"), key);
  assert.ok(out.startsWith(`config file: ${file}\n`));
  row("test", JSON.stringify([join(dir, "check.sh"), "{}"]), file);
  row("atom", '"line"', file);
  row("stats", JSON.stringify(join(dir, "s.json")), file);
  row("jobs", '"3"', "command line");
  row("phase", '["char"]', "command line");
  row("verbose", "true", "command line");
  row("quiet", "false", "default");
  row("strategy", '"complements-first"', "default");
  row("timeout", "adaptive, from the durations of the tests", "default");
  assert.ok(!existsSync(ran), "no test ran");
  assert.ok(!existsSync(join(dir, "s.json")));

  const none = await runWhittle([input, "--print-config", "--no-config"]);
  assert.equal(none.code, 0, none.stderr);
  assert.match(none.stdout.toString(), /^no config file \(--no-config\)\n/);
  assert.match(none.stdout.toString(), /^atom +"both" +default$/m);
});

test("searching from a relative INPUT in a deleted working directory is a usage error, not a crash", async () => {
  const gone = scratch();
  const run = await new Promise<{ code: number | null; stderr: string }>((done) => {
    // The shell enters the directory, removes it, then starts whittle there.
    const child = spawn(
      "bash",
      [
        "-c",
        `cd "${gone}" && rmdir "${gone}" && exec "$0" "$@"`,
        process.execPath,
        MAIN,
        "in.txt",
        "--",
        "true",
      ],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => done({ code, stderr }));
  });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /current directory no longer exists/);
});

test("whittle tree reads the config file's options that it has, with paths from the file's directory, and passes over the others", async () => {
  const { dir } = project();
  const doc = join(dir, "cases", "deep", "doc.txt"); // no extension: no language of its own
  writeFileSync(doc, '{"a": [1, 2], "b": {"c": null}}\n');
  mkdirSync(join(dir, "grammars"));
  writeFileSync(join(dir, "grammars", "JSON.g4"), readFileSync(join(FIXTURES, "grammar", "JSON.g4")));
  // The main command's keys tree has not (test, atom, jobs, stats) are for the reduction.
  write(join(dir, "whittle.config.json"), {
    test: ["./check.sh", "{}"],
    atom: "line",
    jobs: 1,
    stats: "stats.json",
    grammar: "grammars/JSON.g4",
    squeeze: false,
  });
  const tree = await runWhittle(["tree", doc, "--json"], { cwd: REPO });
  assert.equal(tree.code, 0, tree.stderr);
  const flags = ["tree", doc, "--json", "--grammar", join(FIXTURES, "grammar", "JSON.g4"), "--no-squeeze"];
  const expected = await runWhittle([...flags, "--no-config"]);
  assert.equal(expected.code, 0, expected.stderr);
  assert.equal(tree.stdout.toString(), expected.stdout.toString());
  assert.equal((JSON.parse(tree.stdout.toString()) as { kind: string }).kind, "json", "not squeezed");
  assert.ok(!existsSync(join(dir, "stats.json")) && !existsSync(join(dir, "ran")), "nothing of a run");

  // The command line wins: its --language replaces the file's grammar, --squeeze is back on.
  const js = await runWhittle(["tree", doc, "--json", "--language", "javascript"]);
  const jsExpected = await runWhittle([
    "tree",
    doc,
    "--json",
    "--language",
    "javascript",
    "--no-squeeze",
    "--no-config",
  ]);
  assert.equal(js.code, 0, js.stderr);
  assert.equal(js.stdout.toString(), jsExpected.stdout.toString());
  // --no-config: the input has no language of its own, and nothing says one.
  const none = await runWhittle(["tree", doc, "--no-config"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /needs a grammar/);
  // --config FILE names another file.
  const other = join(dir, "other.json");
  write(other, { language: "json" });
  const named = await runWhittle(["tree", doc, "--config", other]);
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout.toString(), /^object \[0,31\) .* removable$/m);
});

test("whittle tree refuses a config file the main command would refuse: unknown keys, bad values (exit 2)", async () => {
  const { dir, input } = project();
  for (const [config, message] of [
    [{ json: true }, /config file .*whittle\.config\.json: unknown key "json"/],
    [{ grammarFile: "x" }, /unknown key "grammarFile"/],
    [{ language: "klingon" }, /key "language": option '--language <name>' argument 'klingon' is invalid/],
    [{ squeeze: "no" }, /"squeeze" must be true or false, not string/],
  ] as const) {
    write(join(dir, "whittle.config.json"), config);
    const run = await runWhittle(["tree", input]);
    assert.equal(run.code, 2, JSON.stringify(config));
    assert.match(run.stderr, message);
  }
});
