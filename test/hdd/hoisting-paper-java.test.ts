/**
 * The hoisting paper's Fig. 5: LocalizedPi.java prints π as "3" + decSep(locale) + "14" and throws
 * for any locale but "en". The test keeps the program throwing its "Unsupported locale" exception
 * when run with `hu`. The call to decSep sits inside the call to formatParts, so HDD* must keep both
 * methods (Fig. 5(b)); hoisting the inner call into the outer one's place lets HDD remove formatParts
 * whole (Fig. 5(c)), with HOIST*+HDD* and with HDDH*. The input is parsed with a small Java grammar
 * of the project's (test/fixtures/grammar/java-mini), and the passes are those `--phase` builds.
 *
 * The paper's test compiles and runs the program. Asking javac and java costs 1-2 s a candidate here
 * and the three reductions ask about a thousand times, so the oracle is a model of that question
 * (test/helpers/localized-pi.ts), called in-process: the command-line runner's own cost per test
 * would make this test take half a minute. The model is checked against the real thing: the results
 * are run by javac and java when they are installed, and WHITTLE_JAVA_ORACLE=javac sends every
 * candidate to javac and the JVM (kept running, test/fixtures/localized-pi/ThrowsOnHu.java) and
 * fails on any candidate where the model disagrees (a few minutes).
 *
 * Fig. 5 prints the methods without `throws Exception`, which javac requires for `throw new
 * Exception(…)` (the printed programs do not compile); the input declares it on decSep and main.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { reduce } from "../../src/index.js";
import { buildPipeline } from "../../src/cli/pipeline.js";
import { AntlrFrontEnd } from "../../src/grammar/front-end.js";
import { FIXTURES, scratch } from "../helpers/cli.js";
import { whyNotThrowsOnHu } from "../helpers/localized-pi.js";

const GRAMMAR = join(FIXTURES, "grammar", "java-mini", "JavaMini.g4");
const INPUT = join(FIXTURES, "localized-pi", "LocalizedPi.java");
const THROWS_ON_HU = join(FIXTURES, "localized-pi", "ThrowsOnHu.java");

/** Fig. 5(c), with the `throws Exception` javac needs. */
const FIG_5C = `class LocalizedPi {
    static String decSep(String a) throws Exception {
        throw new Exception("Unsupported locale");
    }
    public static void main(String[] args) throws Exception {
        String a = decSep(args[0]);
    }
}`;

const squeezed = (text: string): string => text.replace(/\s/g, "");
/** Size as the paper's Table I counts it: non-whitespace characters. */
const size = (text: string): number => squeezed(text).length;

function hasJava(): boolean {
  return ["javac", "java"].every((tool) => spawnSync(tool, ["-version"], { stdio: "ignore" }).status === 0);
}

/** ThrowsOnHu.java as a server: one path per line in, "interesting" or why not per line out, in order. */
function javaServer(): { ask: (file: string) => Promise<string>; close: () => void } {
  const child = spawn("java", [THROWS_ON_HU, "-"], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting: ((answer: string) => void)[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => waiting.shift()?.(line));
  return {
    ask: (file) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${file}\n`);
      }),
    close: () => child.kill(),
  };
}

/** javac's reasons name the compile error in its words, the model's in its own. */
const reasonKind = (why: string): string => (why.startsWith("does not compile") ? "does not compile" : why);

interface Reduction {
  readonly output: string;
  /** Tests whittle ran (the paper's steps). */
  readonly tests: number;
}

interface Results {
  readonly hdd: Reduction;
  readonly hoistHdd: Reduction;
  readonly hddh: Reduction;
  /** Candidates where the model and javac differ (javac mode only). */
  readonly disagreements: string[];
}

let results: Promise<Results> | undefined;

/** The three reductions of the paper's Tables I and II, run once for the tests below. */
function reduceThreeWays(): Promise<Results> {
  return (results ??= (async () => {
    const frontEnd = await AntlrFrontEnd.load({
      grammarFiles: [GRAMMAR],
      start: "compilationUnit",
      cacheDir: false,
    });
    const input = readFileSync(INPUT);
    const disagreements: string[] = [];
    const java = process.env["WHITTLE_JAVA_ORACLE"] === "javac" ? javaServer() : undefined;
    const dir = java ? scratch() : "";
    let asked = 0;
    const interesting = async (candidate: Uint8Array): Promise<boolean> => {
      const text = Buffer.from(candidate).toString("utf8");
      const model = whyNotThrowsOnHu(text) ?? "interesting";
      if (!java) return model === "interesting";
      const file = join(dir, `candidate-${++asked}.java`);
      writeFileSync(file, candidate);
      const real = await java.ask(file);
      if (reasonKind(real) !== reasonKind(model))
        disagreements.push(`javac: ${real}\nmodel: ${model}\n${text}`);
      return real === "interesting";
    };
    const run = async (phases: string[]): Promise<Reduction> => {
      const pipeline = buildPipeline(phases, "both", frontEnd);
      const result = await reduce(input, interesting, { pipeline, jobs: 1 });
      assert.equal(result.kind, "done");
      return { output: Buffer.from(result.output).toString("utf8"), tests: result.stats.tests };
    };
    try {
      return {
        hdd: await run(["prune*"]),
        hoistHdd: await run(["hoist*", "prune*"]),
        hddh: await run(["prune+hoist*"]),
        disagreements,
      };
    } finally {
      java?.close();
    }
  })());
}

test("Fig. 5 of the hoisting paper: HDD* keeps formatParts around the call to decSep; HOIST*+HDD* and HDDH* hoist the call and drop formatParts", async (t) => {
  const { hdd, hoistHdd, hddh, disagreements } = await reduceThreeWays();
  assert.deepEqual(disagreements, [], "the model and javac disagree");
  t.diagnostic(`input: ${size(readFileSync(INPUT, "utf8"))} non-whitespace characters`);
  for (const [name, r] of [
    ["HDD*", hdd],
    ["HOIST*+HDD*", hoistHdd],
    ["HDDH*", hddh],
  ] as const) {
    t.diagnostic(`${name}: ${size(r.output)} non-whitespace characters, ${r.tests} tests`);
    assert.equal(whyNotThrowsOnHu(r.output), null, `${name} gave an uninteresting result:\n${r.output}`);
  }

  // Fig. 5(b): the exception is thrown among the arguments of formatParts, so HDD* keeps the call
  // and the method. (Unlike the figure, HDD* also cuts the body of formatParts down to returning one
  // parameter: whittle's trees make each `.concat(…)` of the chain a removable unit.)
  const flat = squeezed(hdd.output);
  assert.match(
    flat,
    /staticStringformatParts\(StringintPart,String\w+,StringdecSep\)\{return\w+;\}/,
    hdd.output,
  );
  assert.match(flat, /Stringa=formatParts\("","",decSep\(args\[0\]\)\);/, hdd.output);
  assert.match(
    flat,
    /staticStringdecSep\(Stringa\)throwsException\{thrownewException\("Unsupportedlocale"\);\}/,
  );

  // Fig. 5(c): the call to decSep hoisted into the place of the call to formatParts, and formatParts
  // gone. Both hoisting reductions give this same program, as in the paper.
  for (const r of [hoistHdd, hddh]) {
    assert.equal(squeezed(r.output), squeezed(FIG_5C), r.output);
    assert.ok(size(r.output) < 0.75 * size(hdd.output), `${size(r.output)} vs HDD*'s ${size(hdd.output)}`);
  }
  // Table II: hoisting first needs far fewer tests than HDD*, HDDH* somewhat fewer.
  assert.ok(
    hoistHdd.tests < hddh.tests && hddh.tests < hdd.tests,
    `tests: ${hdd.tests}, ${hoistHdd.tests}, ${hddh.tests}`,
  );
});

test("javac and java agree: the input and the three results throw Unsupported locale for hu", async (t) => {
  if (!hasJava()) return t.skip("javac not found");
  const { hdd, hoistHdd, hddh } = await reduceThreeWays();
  const dir = scratch();
  const texts = [readFileSync(INPUT, "utf8"), hdd.output, hoistHdd.output, hddh.output];
  const paths = texts.map((text, i) => {
    const path = join(dir, `${i}.java`);
    writeFileSync(path, text);
    return path;
  });
  const run = spawnSync("java", [THROWS_ON_HU, ...paths], { encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(
    run.stdout.trim().split("\n"),
    paths.map((p) => `${p}: interesting`),
  );
});
