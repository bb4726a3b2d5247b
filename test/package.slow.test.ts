/**
 * The package as a user installs it: `npm pack`, then `npm install` of the tarball into an empty
 * project. The install prints no install-script warnings (the languages' npm packages, whose
 * install scripts build native code whittle never uses, are not dependencies), the command runs,
 * and a built-in language works from the files the package bundles. Needs the npm registry (or
 * npm's cache) for the dependencies; skips with a message where neither answers.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmodSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { REPO, scratch } from "./helpers/cli.js";

const run = promisify(execFile);

test("the packed package installs without warnings and reduces JavaScript along its syntax", async (t) => {
  const dir = scratch("whittle-pack-");
  await run("npm", ["pack", "--pack-destination", dir], { cwd: REPO });
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  assert.ok(tarball, "npm pack made a tarball");
  const project = join(dir, "project");
  await run("mkdir", [project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", private: true }));
  let install: { stdout: string; stderr: string };
  try {
    install = await run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", join(dir, tarball)],
      { cwd: project },
    );
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error);
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(text)) {
      t.skip(`npm install could not reach the registry: ${text.split("\n")[0]}`);
      return;
    }
    throw error;
  }
  assert.doesNotMatch(
    install.stderr + install.stdout,
    /install-scripts|node-gyp/,
    "no install-script warnings",
  );
  const installed = readdirSync(join(project, "node_modules"));
  assert.ok(!installed.some((name) => name.startsWith("tree-sitter-")), installed.join(" "));

  const bin = join(project, "node_modules/.bin/whittle");
  const version = await run(bin, ["--version"], { cwd: project });
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
  assert.equal(version.stdout.trim(), pkg.version);

  writeFileSync(
    join(project, "crash.js"),
    "function unused() { return 1 }\nlet x = 2;\nconsole.log(x.y.z);\n",
  );
  const check = join(project, "check.sh");
  writeFileSync(check, `#!/bin/sh\nnode "$1" 2>&1 | grep -q "reading 'z'"\n`);
  chmodSync(check, 0o755);
  const reduced = await run(bin, ["crash.js", "-j", "1", "--", check, "{}"], { cwd: project });
  assert.match(reduced.stderr, /JavaScript/, "the language came from the extension");
  const result = readFileSync(join(project, "crash.reduced.js"), "utf8");
  assert.doesNotMatch(result, /unused/);
  assert.ok(result.length < 30, result);
});
