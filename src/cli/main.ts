#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { runCli } from "./run.js";

const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

runCli(process.argv.slice(2), pkg.version).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`whittle: internal error: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
