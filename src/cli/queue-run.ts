import { BrokerUrlError, parseBrokerUrl } from "../queue/address.js";
import type { QueueClient, QueueStatus } from "../queue/client.js";
import { UsageError } from "./args.js";
import { loadQueuePackages } from "./queue-packages.js";
import type { RunPlan } from "./plan.js";

/**
 * The most candidates the reduction hands to the queue at once without -j. The queue lets as many
 * run as the workers take (their --jobs, summed, read again every second); the rest wait here, in
 * the order the reduction asked, so its rounds run as they would with that many jobs.
 */
export const QUEUE_JOBS = 64;

/**
 * With --queue: connects to its Redis (waiting for it, with a message, if it is not there yet) and
 * returns the client the tests go through; undefined without --queue. Rejects with the signal's
 * reason if interrupted meanwhile.
 */
export async function openQueue(
  plan: RunPlan,
  signal: AbortSignal,
  say: (text: string) => void,
): Promise<QueueClient | undefined> {
  const o = plan.options;
  if (o.queue === undefined) return undefined;
  let address;
  try {
    address = parseBrokerUrl(o.queue);
  } catch (error) {
    if (error instanceof BrokerUrlError) throw new UsageError(`--queue: ${error.message}`);
    throw error;
  }
  // BullMQ takes a while to load: only runs with --queue load it.
  const { QueueClient } = await loadQueuePackages("--queue", () => import("../queue/client.js"));
  return QueueClient.open(
    {
      address,
      command: o.command,
      fileName: plan.fileName,
      jobs: o.reduce.jobs,
      // --quiet keeps what says why the run waits: Redis away.
      say: o.quiet ? (text) => (/Redis/.test(text) ? say(text) : undefined) : say,
    },
    signal,
  );
}

/** The queue's part of the progress line. */
export function describeQueue(s: QueueStatus): string {
  const others = s.otherWorkers > 0 ? `, ${s.otherWorkers} for other commands` : "";
  return (
    `${s.workers} workers (${s.capacity} slots${others}): ` +
    `${s.queued} queued, ${s.running} running, ${s.done} done`
  );
}
