/**
 * Redis connections that wait out a broker that is down or restarting: commands wait (no retry
 * limit) while ioredis reconnects every second, and the loss and the return of the connection are
 * each said once, with the URL's password masked.
 */
import { Redis } from "ioredis";

import { WhittleError } from "../errors.js";
import { PASSWORD_ENV, type BrokerAddress } from "./address.js";
import { speaksPlainRedis, speaksTls } from "./probe.js";

/** How long to wait between reconnection attempts. */
const RECONNECT_MS = 1000;

export type Say = (text: string) => void;

/**
 * Per connection: why it was closed because there is nothing to wait for (TLS refused the server,
 * or the port speaks the other protocol than the URL's scheme), once it was, and a promise that
 * rejects with that reason then (see whenRefused).
 */
const refusals = new WeakMap<Redis, { why: WhittleError | undefined; promise: Promise<never> }>();

/**
 * Rejects with the reason when `client` is closed because there is nothing to wait for. Commands
 * waiting in ioredis's offline queue are not always failed by that close (when it comes between two
 * reconnection attempts), so whoever waits for the first command races it with this.
 */
export function whenRefused(client: Redis): Promise<never> {
  return refusals.get(client)?.promise ?? new Promise<never>(() => undefined);
}

/**
 * A connection to the broker. `say` hears "lost the connection …" once when it breaks and
 * "connected again" once it is back; `onReady` runs at every (re)connection.
 */
export function connect(address: BrokerAddress, say: Say, name: string, onReady?: () => void): Redis {
  const client = new Redis({
    ...address.options,
    // BullMQ requires it; and a command issued while Redis is away waits instead of failing.
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: () => RECONNECT_MS,
    connectionName: `whittle-${name}`,
    lazyConnect: false,
  });
  let lost = false;
  let everReady = false;
  let probing = false;
  let rejectRefused: (why: WhittleError) => void = () => undefined;
  const refusal = {
    why: undefined as WhittleError | undefined,
    promise: new Promise<never>((_, reject) => (rejectRefused = reject)),
  };
  refusal.promise.catch(() => undefined);
  refusals.set(client, refusal);
  const refuse = (why: WhittleError): void => {
    // loginError names this reason instead of the failed commands'.
    refusal.why = why;
    client.disconnect();
    rejectRefused(why);
  };
  client.on("error", (error: Error) => {
    // A refused login is no outage: the command that meets it fails (see loginError).
    if (lost || probing || refusal.why !== undefined || loginError(error, address) !== undefined) return;
    const tls = tlsError(error, address);
    if (tls !== undefined) return refuse(tls);
    const waiting = (): void => {
      lost = true;
      const what = everReady ? "lost the connection to" : "cannot connect to";
      say(`${what} Redis at ${address.shown} (${describe(error)}); waiting for it (retrying every second)`);
    };
    if (everReady) return waiting();
    // Never connected: the port may speak the other protocol (an outage it is not).
    probing = true;
    void otherScheme(address).then((why) => {
      probing = false;
      if (why !== undefined) refuse(why);
      else if (!everReady) waiting();
    });
  });
  client.on("ready", () => {
    if (lost) say(`connected to Redis at ${address.shown} again`);
    lost = false;
    everReady = true;
    onReady?.();
  });
  return client;
}

/**
 * When `error` says that Redis refused the user or password (nothing to wait for): an error that says
 * so, for exit 2; else undefined.
 */
export function loginError(error: unknown, address: BrokerAddress, client?: Redis): WhittleError | undefined {
  const why = client === undefined ? undefined : refusals.get(client)?.why;
  if (why !== undefined) return why;
  const message = error instanceof Error ? error.message : "";
  if (!/^(WRONGPASS|NOAUTH|NOPERM)\b/.test(message)) return undefined;
  return new WhittleError(
    "usage",
    `Redis at ${address.shown} refused the login: ${describe(error as Error)} ` +
      `(give the password in the URL or in $${PASSWORD_ENV})`,
  );
}

/**
 * When `error` is TLS refusing the server's certificate: an error that says so, for exit 2; else
 * undefined.
 */
function tlsError(error: Error, address: BrokerAddress): WhittleError | undefined {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (/CERT|SIGNATURE|ALTNAME|HOSTNAME_MISMATCH/.test(code)) {
    return new WhittleError(
      "usage",
      `Redis at ${address.shown}: TLS does not accept its certificate (${code}); if your own CA signed ` +
        "it, give the CA's file in $NODE_EXTRA_CA_CERTS",
    );
  }
  return undefined;
}

/**
 * When the broker's port speaks the other protocol than the URL's scheme: an error that says which
 * scheme to use, for exit 2; else undefined (an outage, or a port that is not Redis at all).
 */
async function otherScheme(address: BrokerAddress): Promise<WhittleError | undefined> {
  const { host, port } = address.options;
  if (host === undefined || port === undefined) return undefined;
  const tls = address.options.tls !== undefined;
  const scheme = tls ? "rediss://" : "redis://";
  if (tls ? await speaksPlainRedis(host, port) : await speaksTls(host, port)) {
    const other = tls ? "redis://" : "rediss://";
    const what = tls ? "plain Redis, without TLS" : "TLS";
    return new WhittleError(
      "usage",
      `Redis at ${address.shown} speaks ${what}: use ${other} instead of ${scheme} for this port`,
    );
  }
  return undefined;
}

/** A Redis error in a few words, without anything that could hold a password. */
function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined) return code;
  return error.message.split("\n")[0]!.replace(/\/\/[^@\s]*@/g, "//***@");
}

/** The keys that start with `prefix` (SCAN, so that a large database is not blocked). */
export async function keysWithPrefix(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== "0");
  return keys;
}

/** How long closing waits for each step when Redis is away or slow to answer. */
export const CLOSE_LIMIT_MS = 2000;

/** Waits for `promise` (ignoring its failure), but not longer than `ms`. */
export async function within(ms: number, promise: Promise<unknown> | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise?.catch(() => undefined),
    new Promise<void>((done) => (timer = setTimeout(done, ms))),
  ]);
  clearTimeout(timer);
}

/**
 * Resolves once Redis at `address` answers (waiting, with connect()'s messages, while it is away);
 * rejects with a WhittleError ("usage") if it refuses the login; resolves too once `stop` does.
 * Leaves no connection open.
 */
export async function checkLogin(address: BrokerAddress, say: Say, stop: Promise<void>): Promise<void> {
  const client = connect(address, say, "check");
  try {
    await Promise.race([client.ping(), stop, whenRefused(client)]);
  } catch (error) {
    throw loginError(error, address, client) ?? error;
  } finally {
    client.disconnect();
  }
}
