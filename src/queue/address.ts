/**
 * Where the broker is: a `redis://` or `rediss://` (TLS) URL, with an optional user and password
 * and the database number as its path. The password never appears in anything whittle prints: every
 * message shows `shown`, where it is masked.
 */
import { isIP } from "node:net";

import type { RedisOptions } from "ioredis";

/** The environment variable that gives the password when the URL has none. */
export const PASSWORD_ENV = "WHITTLE_REDIS_PASSWORD";

export interface BrokerAddress {
  /** The URL with its password masked: the only form of it that may be printed. */
  readonly shown: string;
  /** The connection options for ioredis (host, port, db, user, password, TLS). */
  readonly options: RedisOptions;
}

/** A broker URL that whittle cannot use; the message says why (and never holds the password). */
export class BrokerUrlError extends Error {}

/**
 * Parses a broker URL: `redis://[USER[:PASSWORD]@]HOST[:PORT][/DB]`, or `rediss://…` for TLS. The
 * password may also come from $WHITTLE_REDIS_PASSWORD (kept out of shell history and `ps`).
 */
export function parseBrokerUrl(text: string, env: NodeJS.ProcessEnv = process.env): BrokerAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not echoed: a URL that does not parse may still hold a password.
    throw new BrokerUrlError("the Redis URL does not parse; expected redis://[USER:PASSWORD@]HOST:PORT/DB");
  }
  const tls = url.protocol === "rediss:";
  if (url.protocol !== "redis:" && !tls) {
    throw new BrokerUrlError(`${url.protocol}// is not a Redis URL; expected redis:// or rediss:// (TLS)`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "") throw new BrokerUrlError("the Redis URL names no host");
  const port = url.port === "" ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, "");
  if (path !== "" && !/^\d{1,5}$/.test(path)) {
    throw new BrokerUrlError(`the Redis URL's path must be a database number, not "/${path}"`);
  }
  if (url.search !== "" || url.hash !== "") {
    throw new BrokerUrlError("the Redis URL takes no query or fragment");
  }
  const username = decodeURIComponent(url.username);
  const fromUrl = decodeURIComponent(url.password);
  const password = fromUrl !== "" ? fromUrl : (env[PASSWORD_ENV] ?? "");
  const options: RedisOptions = {
    host,
    port,
    db: path === "" ? 0 : Number(path),
    ...(username !== "" ? { username } : {}),
    ...(password !== "" ? { password } : {}),
    // SNI takes a host name only (RFC 6066; Node warns on an address): TLS then checks the address.
    ...(tls ? { tls: isIP(host) === 0 ? { servername: host } : {} } : {}),
  };
  const auth = username !== "" || password !== "" ? `${username}${password !== "" ? ":***" : ""}@` : "";
  const shown = `${url.protocol}//${auth}${url.host}/${options.db}`;
  return { shown, options };
}

/** `text` with anything between "//" and "@" that looks like "user:password" masked. */
export function maskInText(text: string): string {
  return text.replace(/(\/\/[^/@:\s]*):[^@\s]*@/g, "$1:***@");
}
