/**
 * Whether a broker's port speaks the other protocol than its URL says: a `rediss://` URL for a
 * plain Redis port makes the TLS handshake wait forever (Redis reads the ClientHello as the start
 * of a command), and a `redis://` URL for a TLS port has its connection reset at every try. Both
 * look like an outage, which whittle would wait out; one probe of the other protocol tells them
 * apart, so that the user hears which scheme to use instead.
 */
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** How long a probe waits for its answer. */
export const PROBE_MS = 2000;

/**
 * Whether `host:port` answers a plain `PING` the way Redis does (`+PONG`, or an error such as
 * `-NOAUTH`): then it speaks plain Redis. False on anything else, including silence.
 */
export function speaksPlainRedis(host: string, port: number, ms = PROBE_MS): Promise<boolean> {
  return probe(connectTcp({ host, port }), "connect", ms, (socket, settle) => {
    socket.write("PING\r\n");
    socket.once("data", (data: Buffer) => settle(data[0] === 0x2b || data[0] === 0x2d));
  });
}

/**
 * Whether `host:port` completes a TLS handshake (any certificate: only the protocol is asked).
 * False on anything else.
 */
export function speaksTls(host: string, port: number, ms = PROBE_MS): Promise<boolean> {
  return probe(
    connectTls({ host, port, rejectUnauthorized: false }),
    "secureConnect",
    ms,
    (_socket, settle) => settle(true),
  );
}

function probe(
  socket: Socket,
  ready: "connect" | "secureConnect",
  ms: number,
  onReady: (socket: Socket, settle: (answer: boolean) => void) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (answer: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => settle(false), ms);
    socket.once("error", () => settle(false));
    socket.once("close", () => settle(false));
    socket.once(ready, () => onReady(socket, settle));
  });
}
