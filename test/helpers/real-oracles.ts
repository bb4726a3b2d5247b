/**
 * The real oracles of the per-language tests (issue 10): for each built-in language, a real-looking
 * input with a real oracle (the compiler, the interpreter, or a parser/validator of the language
 * that runs here). The grammar-aware result must stay interesting and be smaller, in non-whitespace
 * characters, than line+char ddmin's (--language none). Each oracle refuses broken syntax, so only
 * well-formed candidates count.
 *
 * The cases run in the default suite, so their oracles are cheap: a compiler that only checks
 * (gcc and g++ -fsyntax-only, rustc --emit=metadata), python3 -S for the program that must fail, bash
 * itself reading the diagnostics, and the tools whose start-up costs tens or hundreds of milliseconds
 * kept running as a server that the oracle asks through bash's /dev/tcp: V8 through node:vm, the
 * TypeScript compiler's API, javac through javax.tools, python3 with json, html.parser or PyYAML
 * loaded. The two reductions of a case run at the same time. The cases are spread over three test
 * files (languages-real-native, -web and -other), each well within the test runner's time limit per
 * file (npm test gives each file 300 s).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { test } from "node:test";
import vm from "node:vm";
import { runWhittle, scratch } from "./cli.js";
import { DEFAULT_TREE_PHASES } from "../../src/cli/pipeline.js";

export interface Case {
  /** The test's name: the built-in language the extension selects. */
  language: string;
  /** The input's file name (its extension selects the language). */
  file: string;
  /** Why the case cannot run here, or undefined when it can. */
  missing: () => string | undefined;
  input: string;
  /**
   * Writes what the oracle needs into `dir` (and starts what it asks, stopped by `cleanup`) and
   * returns the body of its bash script ($1: the candidate).
   */
  oracle: (dir: string, cleanup: (stop: () => unknown) => void) => string | Promise<string>;
  /**
   * Options of the grammar-aware run beyond the defaults, each with its reason in `why` (shown in
   * the test's diagnostics).
   */
  grammarFlags?: { flags: string[]; why: string };
  /**
   * The smallest interesting text, without whitespace, where it is known (the oracle asks for a few
   * named things and nothing else). When line+char ddmin reaches it, nothing can be smaller: the
   * grammar-aware run must reach it too, in fewer tests.
   */
  smallest?: string;
}

function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

export function needs(...commands: string[]): () => string | undefined {
  return () => {
    const absent = commands.filter((c) => !onPath(c));
    return absent.length > 0 ? `${absent.join(", ")} not installed` : undefined;
  };
}

/**
 * The python3 on the PATH as its own executable (a version manager's shim costs a tenth of a second
 * a call), or undefined when there is none.
 */
export const PYTHON = ((): string | undefined => {
  const run = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() || undefined : undefined;
})();

export function needsPython(module?: string): () => string | undefined {
  return () => {
    if (PYTHON === undefined) return "python3 not installed";
    if (module === undefined) return undefined;
    const run = spawnSync(PYTHON, ["-c", `import ${module}`], { stdio: "ignore" });
    return run.status === 0 ? undefined : `python3 with ${module} not installed`;
  };
}

/**
 * The rustc of the toolchain itself: rustup's proxy on the PATH costs a tenth more a call. (Only used
 * when rustc is installed.)
 */
export const RUSTC = ((): string => {
  const run = spawnSync("rustc", ["--print", "sysroot"], { encoding: "utf8" });
  const direct = run.status === 0 ? join(run.stdout.trim(), "bin/rustc") : "";
  return direct !== "" && existsSync(direct) ? direct : "rustc";
})();

/** `text` as one bash word. */
const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * An oracle on a compiler's diagnostics: the output of `command` (stdout and stderr) has exactly one
 * line matching `errorLine` (a bash regex), and that line contains `want`. Every syntax error adds an
 * error line, so broken candidates are not interesting. (bash alone reads the output: a grep per
 * test costs a few milliseconds.)
 */
export function oneError(command: string, errorLine: string, want: string): string {
  return [
    `want=${shellWord(want)} re=${shellWord(errorLine)} n=0 found=0`,
    `out=$(${command} 2>&1)`,
    "while IFS= read -r line; do",
    "  if [[ $line =~ $re ]]; then",
    "    n=$((n + 1))",
    '    if [[ $line == *"$want"* ]]; then found=1; fi',
    "  fi",
    'done <<<"$out"',
    '[ "$n" -eq 1 ] && [ "$found" -eq 1 ]',
  ].join("\n");
}

/**
 * A tool kept running: a local TCP server that answers each connection, which sends a candidate's
 * path and a newline, with `answer(path)` and closes it. `ask` is the bash command that prints the
 * answer for "$1" (bash's /dev/tcp: no process starts for the question).
 */
export async function serve(
  answer: (path: string) => string | Promise<string>,
  cleanup: (stop: () => unknown) => void,
): Promise<string> {
  const server = createServer((socket) => {
    let request = "";
    let asked = false;
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.on("data", (chunk: string) => {
      request += chunk;
      const end = request.indexOf("\n");
      if (end < 0 || asked) return;
      asked = true;
      Promise.resolve(request.slice(0, end))
        .then(answer)
        .then(
          (text) => socket.end(text),
          (error: unknown) => socket.end(`oracle server: ${String(error)}`),
        );
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  cleanup(() => new Promise((done) => server.close(done)));
  const address = server.address();
  assert.ok(address !== null && typeof address === "object");
  return askPort(address.port);
}

/** The bash command that prints the answer of the server on `port` for "$1" (builtins only). */
function askPort(port: number): string {
  return [
    `{ exec 3<>/dev/tcp/127.0.0.1/${port}`,
    `case $1 in /*) printf '%s\\n' "$1" ;; *) printf '%s\\n' "$PWD/$1" ;; esac >&3`,
    `IFS= read -r -d '' -u 3 answer; printf '%s' "$answer"; }`,
  ].join(" && ");
}

/**
 * V8 through node:vm: runs the script in a fresh context (a console that prints nothing, no timers,
 * no modules) and answers with what it threw, as node prints it ("TypeError: …"), or "ok". A syntax
 * error throws before anything runs.
 */
export function runJavaScript(path: string): string {
  const context = vm.createContext({ console: { log: () => undefined } }, { microtaskMode: "afterEvaluate" });
  try {
    new vm.Script(readFileSync(path, "utf8"), { filename: path }).runInContext(context, { timeout: 2000 });
    return "ok";
  } catch (error) {
    context.thrown = error;
    try {
      return String(vm.runInContext("String(thrown)", context, { timeout: 500 }));
    } catch {
      return "unprintable throw";
    }
  }
}

/** The smallest lib the TypeScript compiler needs with noLib (the full lib costs seconds per call). */
const MINI_LIB = `interface Array<T> { length: number; [n: number]: T; push(...items: T[]): number; }
interface Boolean {}
interface Function {}
interface CallableFunction {}
interface NewableFunction {}
interface IArguments {}
interface Number { toFixed(digits?: number): string; }
interface Object {}
interface RegExp {}
interface String { length: number; toUpperCase(): string; }
declare namespace JSX {
  interface Element {}
  interface IntrinsicElements { [tag: string]: { [attribute: string]: unknown } }
}
`;

/**
 * tsc --noEmit --strict --noLib (with MINI_LIB) through the compiler's API, kept loaded: the answer is
 * the diagnostics as `tsc --pretty false` prints them. The oracle wants exactly one error, TS2322.
 */
export function tscOracle(jsx: boolean): Case["oracle"] {
  return async (dir, cleanup) => {
    const ts = (await import("typescript")).default;
    const lib = join(dir, "mini-lib.d.ts");
    writeFileSync(lib, MINI_LIB);
    const options: import("typescript").CompilerOptions = {
      noEmit: true,
      strict: true,
      noLib: true,
      types: [],
      ...(jsx ? { jsx: ts.JsxEmit.Preserve } : {}),
    };
    const host = ts.createCompilerHost(options);
    const ask = await serve((path) => {
      const program = ts.createProgram({ rootNames: [lib, path], options, host });
      return ts.formatDiagnostics(ts.getPreEmitDiagnostics(program), host);
    }, cleanup);
    return oneError(ask, "error TS[0-9]+", "error TS2322: Type 'string' is not assignable to type 'number'.");
  };
}

/** javac kept running (javax.tools, one compilation at a time): answers with javac's own output. */
const JAVAC_SERVER = `import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavacServer {
  public static void main(String[] args) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
    Thread parent = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {}
      } catch (Exception e) {
      }
      System.exit(0);
    });
    parent.setDaemon(true);
    parent.start();
    try (ServerSocket server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress())) {
      System.out.println(server.getLocalPort());
      System.out.flush();
      while (true) {
        try (Socket client = server.accept()) {
          BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
          String path = in.readLine();
          StringWriter out = new StringWriter();
          if (path != null) {
            String classes = new File(path).getAbsoluteFile().getParent();
            List<String> options = List.of("-Xlint:none", "-proc:none", "-implicit:none", "-d", classes);
            javac.getTask(out, files, null, options, null, files.getJavaFileObjects(path)).call();
          }
          client.getOutputStream().write(out.toString().getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
          // the client went away: on to the next one
        }
      }
    }
  }
}
`;

/**
 * Starts a tool kept running as its own process, which prints the port it listens on and ends with its
 * stdin (so also if this process dies); returns the bash command that asks it about "$1".
 */
async function startServer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cleanup: (stop: () => unknown) => void,
): Promise<string> {
  const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "inherit"] });
  cleanup(() => child.kill());
  const port = await new Promise<number>((done, fail) => {
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) done(Number(out.trim()));
    });
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`${command} ended (${code}) before it listened`)));
  });
  return askPort(port);
}

export function javacServer(dir: string, cleanup: (stop: () => unknown) => void): Promise<string> {
  writeFileSync(join(dir, "JavacServer.java"), JAVAC_SERVER);
  return startServer("java", ["-XX:+UseSerialGC", join(dir, "JavacServer.java")], process.env, cleanup);
}

/** python3 kept running: answers "yes" when the `check(path)` that `checker` defines returns true. */
const PYTHON_SERVER = `import os, socketserver, sys, threading

names = {}
exec(compile(open(sys.argv[1]).read(), sys.argv[1], "exec"), names)
check = names["check"]


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        path = self.rfile.readline().decode().rstrip("\\n")
        try:
            answer = "yes" if check(path) else "no"
        except Exception as error:
            answer = "no: " + type(error).__name__
        self.wfile.write(answer.encode())


class Server(socketserver.TCPServer):
    request_queue_size = 16


def end_with_stdin():
    sys.stdin.read()
    os._exit(0)


server = Server(("127.0.0.1", 0), Handler)
threading.Thread(target=end_with_stdin, daemon=True).start()
print(server.server_address[1], flush=True)
server.serve_forever()
`;

/** The oracle of a check in python3 (kept running, see PYTHON_SERVER): `checker` defines check(path). */
export function pythonCheck(checker: string): Case["oracle"] {
  return async (dir, cleanup) => {
    writeFileSync(join(dir, "server.py"), PYTHON_SERVER);
    writeFileSync(join(dir, "checker.py"), checker);
    const ask = await startServer(
      PYTHON ?? "python3",
      [join(dir, "server.py"), join(dir, "checker.py")],
      process.env,
      cleanup,
    );
    return `[ "$(${ask})" = yes ]`;
  };
}

/** The text without its whitespace; its length is the size the cases compare. */
const squeezed = (text: string): string => text.replace(/\s/g, "");
const nonWhitespace = (text: string): number => squeezed(text).length;

interface Reduced {
  text: string;
  tests: number;
  seconds: number;
  /** The passes whittle made (tree phases first when it reduced along the language's syntax). */
  pipeline: string[];
}

/**
 * The whittle runs under way: if the test runner stops this file (its time limit), they stop too,
 * rather than go on loading the machine under the next files' tests.
 */
const running = new Set<number>();
process.once("SIGTERM", () => {
  for (const pid of running) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  process.exit(143);
});

async function reduce(
  dir: string,
  input: string,
  test: string,
  tag: string,
  flags: string[],
): Promise<Reduced> {
  const output = join(dir, `out-${tag}`);
  const stats = join(dir, `stats-${tag}.json`);
  const start = performance.now();
  let pid: number | undefined;
  const run = await runWhittle(
    [input, "-j", "2", "-q", "--timeout", "20", ...flags, "-o", output, "--stats", stats, "--test", test],
    {
      cwd: dir,
      env: { XDG_CACHE_HOME: join(dir, "cache") },
      onSpawn: (spawned) => running.add((pid = spawned)),
    },
  ).finally(() => running.delete(pid ?? -1));
  assert.equal(run.code, 0, `${tag}: ${run.stderr}`);
  const summary = JSON.parse(readFileSync(stats, "utf8")) as { tests: number; pipeline: string[] };
  return {
    text: readFileSync(output, "utf8"),
    tests: summary.tests,
    seconds: (performance.now() - start) / 1000,
    pipeline: summary.pipeline,
  };
}

/** Runs the oracle on `path` (without blocking: the tool it asks may be served by this process). */
function interesting(oracle: string, path: string): Promise<boolean> {
  return new Promise((done, fail) => {
    const child = spawn(oracle, [path], { cwd: resolve(path, ".."), stdio: "ignore" });
    child.on("error", fail);
    child.on("close", (code) => done(code === 0));
  });
}

/** One test per case: both reductions, then the grammar-aware result against line+char's. */
export function testCases(cases: readonly Case[]): void {
  for (const c of cases) {
    const missing = c.missing();
    test(
      `${c.language}: the grammar-aware result of ${c.file} is interesting and smaller than line+char ddmin's` +
        (c.smallest === undefined ? "" : " (or, where that is the smallest, as small in fewer tests)"),
      { skip: missing !== undefined ? `${c.language}: ${missing}` : false },
      async (t) => {
        const stops: (() => unknown)[] = [];
        try {
          const dir = scratch();
          const input = join(dir, c.file);
          writeFileSync(input, c.input);
          const oracle = join(dir, "is-interesting.sh");
          const body = await c.oracle(dir, (stop) => stops.push(stop));
          writeFileSync(oracle, `#!/usr/bin/env bash\nexport LC_ALL=C\n${body}\n`);
          chmodSync(oracle, 0o755);
          assert.ok(await interesting(oracle, input), "the original input is interesting");

          // At the same time: the tree phases mostly test one candidate at a time.
          const [grammar, plain] = await Promise.all([
            reduce(dir, input, oracle, "grammar", c.grammarFlags?.flags ?? []),
            reduce(dir, input, oracle, "none", ["--language", "none"]),
          ]);

          // Not a fall-back to text (which a syntax error in the input would cause, with -q silently).
          assert.deepEqual(
            grammar.pipeline.slice(0, 2),
            DEFAULT_TREE_PHASES.slice(0, 2).map((phase) => (phase === "hidden" ? "ddmin:" : "hdd:") + phase),
            `the grammar run's passes: ${grammar.pipeline.join(", ")}`,
          );
          assert.deepEqual(plain.pipeline, ["ddmin:line", "ddmin:char"]);
          const candidate = join(dir, "check", c.file);
          mkdirSync(join(dir, "check"));
          writeFileSync(candidate, grammar.text);
          const line = (name: string, r: Reduced): string =>
            `${name}: ${nonWhitespace(r.text)} non-ws, ${r.tests} tests, ${r.seconds.toFixed(1)} s`;
          t.diagnostic(
            `${c.language}: input ${c.input.split("\n").length - 1} lines, ${nonWhitespace(c.input)} non-ws; ` +
              `${line("grammar", grammar)}; ${line("none", plain)}`,
          );
          if (c.grammarFlags !== undefined) {
            t.diagnostic(
              `${c.language} grammar run with ${c.grammarFlags.flags.join(" ")}: ${c.grammarFlags.why}`,
            );
          }
          t.diagnostic(`${c.language} grammar result: ${JSON.stringify(grammar.text)}`);
          t.diagnostic(`${c.language} none result: ${JSON.stringify(plain.text)}`);
          assert.ok(
            await interesting(oracle, candidate),
            `the grammar-aware result is interesting:\n${grammar.text}`,
          );
          if (c.smallest !== undefined && squeezed(plain.text) === c.smallest) {
            assert.equal(
              squeezed(grammar.text),
              c.smallest,
              "line+char reached the smallest: so does whittle",
            );
            assert.ok(grammar.tests < plain.tests, `in fewer tests: ${grammar.tests} against ${plain.tests}`);
          } else {
            assert.ok(
              nonWhitespace(grammar.text) < nonWhitespace(plain.text),
              `grammar-aware ${JSON.stringify(grammar.text)} is smaller than line+char ${JSON.stringify(plain.text)}`,
            );
          }
        } finally {
          for (const stop of stops) await stop();
        }
      },
    );
  }
}
