/**
 * A test script whose decision is made inside the test process: the script is a few lines of bash
 * that send the candidate's path over a loopback connection (bash's /dev/tcp) and exit with the
 * answer. The same predicate as a `node -e` script, without starting a Node process per test (about
 * 0.1 s of CPU each on the 2-core machines the suite runs on; a bash start is a few milliseconds).
 *
 * The test process must stay free to answer while whittle runs: use it with the asynchronous
 * `runWhittle` or the library's `reduce`, never with a synchronous spawn.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";

/** Says whether a candidate (its bytes) is interesting. */
export type Predicate = (bytes: Buffer) => boolean;

let server: Promise<{ server: Server; port: number }> | undefined;
const predicates = new Map<string, Predicate>();

/** One server for the whole test file, unreferenced so that it never keeps the process alive. */
function serve(): Promise<{ server: Server; port: number }> {
  server ??= new Promise((done, fail) => {
    const s = createServer((socket) => {
      let line = "";
      socket.on("error", () => undefined); // a killed test's connection
      socket.on("data", (chunk: Buffer) => {
        line += chunk.toString();
        const end = line.indexOf("\n");
        if (end < 0) return;
        const [id = "", path = ""] = line.slice(0, end).split("\t");
        const predicate = predicates.get(id);
        // A predicate that throws says "not interesting", as a `node -e` script that throws exits 1.
        const verdict = (bytes: Buffer): boolean => {
          try {
            return predicate?.(bytes) === true;
          } catch {
            return false;
          }
        };
        readFile(path).then(
          (bytes) => socket.end(verdict(bytes) ? "0\n" : "1\n"),
          () => socket.end("1\n"),
        );
      });
    });
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.unref();
      if (typeof address === "object" && address) done({ server: s, port: address.port });
      else fail(new Error("the oracle server has no port"));
    });
  });
  return server;
}

/**
 * Writes an executable test script at `script` that asks `predicate` about the file it is given
 * (its first argument, relative to its working directory or absolute).
 */
export async function writePredicateScript(script: string, predicate: Predicate): Promise<string> {
  const { port } = await serve();
  const id = String(predicates.size + 1);
  predicates.set(id, predicate);
  writeFileSync(
    script,
    [
      "#!/usr/bin/env bash",
      `# Asks the test process (port ${port}, predicate ${id}) whether "$1" is interesting.`,
      'case "$1" in /*) path="$1" ;; *) path="$PWD/$1" ;; esac',
      `exec 3<>/dev/tcp/127.0.0.1/${port} || exit 2`,
      `printf '%s\\t%s\\n' ${id} "$path" >&3`,
      "read -r verdict <&3 || exit 2",
      'exit "$verdict"',
      "",
    ].join("\n"),
  );
  chmodSync(script, 0o755);
  return script;
}
