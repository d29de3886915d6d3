// Counts the round trips a service makes to PostgreSQL and Redis, from the bytes a TCP proxy
// (tcp-proxy.ts) carries: what a request costs on the wire, whatever the client libraries do.
import type { ConnectionWatcher } from './tcp-proxy.ts';

/** A count the watchers of every connection add to. */
export interface Counter {
  readonly count: number;
  /** The watcher for one new connection (TcpProxyOptions.watch). */
  watch(): ConnectionWatcher;
}

/**
 * PostgreSQL round trips: the server ends the answer to every query, or to every batch of
 * extended-protocol messages up to a Sync, with one ReadyForQuery message (`Z`). Every server
 * message is a type byte and a length that counts itself (the protocol's section 55.7).
 */
export function postgresRoundTrips(): Counter {
  let count = 0;
  return {
    get count() {
      return count;
    },
    watch() {
      let pending = Buffer.alloc(0);
      return {
        fromServer(chunk) {
          pending = Buffer.concat([pending, chunk]);
          while (pending.length >= 5) {
            const length = pending.readUInt32BE(1);
            if (pending.length < 1 + length) break;
            if (pending[0] === 0x5a) count += 1;
            pending = pending.subarray(1 + length);
          }
        },
      };
    },
  };
}

/**
 * Redis commands: each is one RESP array of bulk strings (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`), as
 * ioredis writes it; a command is a round trip unless pipelined with others, so this is an
 * upper bound of the round trips.
 */
export function redisCommands(): Counter {
  let count = 0;
  return {
    get count() {
      return count;
    },
    watch() {
      let pending = Buffer.alloc(0);
      return {
        fromClient(chunk) {
          pending = Buffer.concat([pending, chunk]);
          for (let end = commandEnd(pending); end !== undefined; end = commandEnd(pending)) {
            count += 1;
            pending = pending.subarray(end);
          }
        },
      };
    },
  };
}

/** Where the first whole command of `buffer` ends, or undefined while it is incomplete. */
function commandEnd(buffer: Buffer): number | undefined {
  const line = (from: number) => {
    const end = buffer.indexOf('\r\n', from);
    return end === -1 ? undefined : { text: buffer.toString('latin1', from, end), next: end + 2 };
  };
  const header = line(0);
  if (!header?.text.startsWith('*')) return undefined;
  let at = header.next;
  for (let argument = Number(header.text.slice(1)); argument > 0; argument -= 1) {
    const size = line(at);
    if (!size?.text.startsWith('$')) return undefined;
    at = size.next + Number(size.text.slice(1)) + 2;
    if (at > buffer.length) return undefined;
  }
  return at;
}
