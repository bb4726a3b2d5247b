import { Command, CommanderError, InvalidArgumentError, Option } from "commander";

import { WhittleError } from "../errors.js";
import { CommandOracle } from "../oracle/command.js";
import { BrokerUrlError, parseBrokerUrl } from "../queue/address.js";
import { checkLogin } from "../queue/redis.js";
import { TestWorker, type WorkerTotals } from "../queue/worker.js";
import { EXIT } from "./exit.js";
import { openRun } from "./lifecycle.js";
import { absolutePath } from "./plan.js";
import type { CliIo } from "./run.js";

/**
 * `whittle worker redis://HOST:PORT/DB [--jobs K] [--quiet] -- CMD [ARG...]`: runs the tests that
 * reductions started with `--queue` and the same CMD send to that Redis, K at a time, until
 * interrupted (SIGINT, SIGTERM, SIGHUP): then its running tests are killed and handed back to the
 * queue, it prints its totals and exits 0.
 */
export async function runWorkerCommand(
  argv: readonly string[],
  io: CliIo,
  say: (text: string) => void,
): Promise<number> {
  const split = argv.indexOf("--");
  const own = split < 0 ? [...argv] : argv.slice(0, split);
  const command = split < 0 ? [] : argv.slice(split + 1);
  const program = new Command("whittle worker")
    .description("Run the tests that reductions started with --queue send to Redis.")
    .usage("redis://[USER:PASSWORD@]HOST:PORT/DB [--jobs K] -- CMD [ARG...]")
    .argument(
      "<url>",
      "the Redis of the queue (rediss:// for TLS; or the password in $WHITTLE_REDIS_PASSWORD)",
    )
    .addOption(new Option("-j, --jobs <k>", "tests run at once (default 1)").argParser(positive).default(1))
    .addOption(new Option("-q, --quiet", "print only the start, problems and the totals"))
    .exitOverride()
    .configureOutput({ writeErr: (text) => say(text.trimEnd()) });
  try {
    program.parse(own, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.done : EXIT.usage;
    throw error;
  }
  const o = program.opts();
  const [url] = program.processedArgs as [string];
  if (command.length === 0) {
    say("error: no test command given: add -- CMD [ARG...], the same command the reductions name");
    return EXIT.usage;
  }
  let address;
  try {
    address = parseBrokerUrl(url);
  } catch (error) {
    if (error instanceof BrokerUrlError) {
      say(`error: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  let program0: string;
  try {
    program0 = await CommandOracle.checkExecutable(command[0]!);
  } catch (error) {
    if (error instanceof WhittleError) {
      say(`error: ${error.message}`);
      return EXIT.usage;
    }
    throw error;
  }
  const run = openRun({ processWide: io.processWide === true });
  const jobs = o["jobs"] as number;
  const cwd = process.cwd();
  let worker: TestWorker | undefined;
  let interrupted = false;
  let removeHandler = (): void => undefined;
  const stopped = new Promise<void>((done) => {
    removeHandler = io.onInterrupt(() => {
      interrupted = true;
      done();
    });
  });
  try {
    try {
      await checkLogin(address, say, stopped);
    } catch (error) {
      if (!(error instanceof WhittleError)) throw error;
      say(`error: ${error.message}`);
      return EXIT.usage;
    }
    if (!interrupted) {
      worker = new TestWorker({
        address,
        command,
        resolved: [program0, ...command.slice(1)],
        jobs,
        local: {
          tmpRoot: run.dir,
          groups: run.groups,
          inheritFd: run.dirFd,
          env: { WHITTLE_CWD: cwd, PATH: absolutePath(process.env["PATH"] ?? "", cwd) },
        },
        say,
        verbose: o["quiet"] !== true,
      });
      say(
        `worker ${worker.id}: running ${JSON.stringify(command)} (queue ${worker.queue}), ` +
          `${jobs} at a time, for reductions through ${address.shown}; Ctrl-C stops`,
      );
      await stopped;
    }
    if (worker === undefined) return EXIT.done;
    say("stopping: killing the running tests and handing their jobs back to the queue…");
    await worker.stop();
    say(`worker ${worker.id}: ${describeTotals(worker.totals)}`);
    return EXIT.done;
  } finally {
    removeHandler();
    await worker?.stop();
    const left = run.close();
    if (left !== undefined) say(`warning: ${left}`);
  }
}

/** The worker's totals in one line. */
export function describeTotals(t: WorkerTotals): string {
  const outcomes = Object.entries(t.byOutcome)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(", ");
  return (
    `ran ${t.ran} tests${outcomes ? ` (${outcomes})` : ""}, killed ${t.cancelled} on cancel, ` +
    `refused ${t.refused}, dropped ${t.dropped} of finished runs, handed back ${t.handedBack}`
  );
}

function positive(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("must be a whole number, at least 1.");
  return n;
}
