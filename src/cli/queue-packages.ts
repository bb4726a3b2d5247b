import { UsageError } from "./args.js";

/**
 * BullMQ and ioredis are optional peer dependencies, not dependencies: most users never use --queue,
 * and BullMQ's optional native encoder (msgpackr-extract) has an install script that npm warns
 * about on every install. What needs them loads them through this, which names the packages to
 * install when they are missing.
 */
export async function loadQueuePackages<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === "ERR_MODULE_NOT_FOUND" && /'(bullmq|ioredis)'/.test(e.message))
      throw new UsageError(
        `${what} needs the npm packages bullmq and ioredis, which are not installed: npm install bullmq@6.7.0 ioredis@5.11.1 (beside whittle-reduce)`,
      );
    throw error;
  }
}
