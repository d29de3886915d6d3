import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '../core/logger.ts';
import { createHttpServer, type Fetch, type HttpServerOptions } from './http/create-server.ts';

export interface Listening {
  server: Server;
  /** Scheme, host and port, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Stops listening and drops open connections at once (for tests and the mock, not for a graceful stop). */
  close(): Promise<void>;
  /**
   * Stops listening, lets the requests in flight finish and drops the connections still busy
   * after `graceMs`; resolves once every connection is closed.
   */
  closeGracefully(graceMs: number): Promise<void>;
}

export interface ListenOptions extends Omit<HttpServerOptions, 'logger'> {
  /** Where the HTTP layer logs what it refuses; warnings only by default. */
  logger?: Logger;
}

/**
 * Serves `fetch` on `hostname:port` (0: a free port) and resolves once it listens; rejects with
 * the system's error (a busy port, an unknown host).
 */
export async function listen(
  fetch: Fetch,
  hostname: string,
  port: number,
  { logger = createLogger('warn'), ...options }: ListenOptions,
): Promise<Listening> {
  const server = createHttpServer(fetch, { logger, ...options });
  const address = await bind(server, hostname, port);
  let closing = false;
  // A keep-alive connection that finishes its last request during a graceful stop would otherwise
  // hold the stop back until its idle timeout.
  server.on('request', (_request, response) => {
    response.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  const closed = () =>
    new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return {
    server,
    origin: originOf(address),
    close() {
      const done = closed();
      server.closeAllConnections();
      return done;
    },
    closeGracefully(graceMs) {
      closing = true;
      const done = closed();
      server.closeIdleConnections();
      // Requests still running after the grace period lose their connection rather than hold the stop back.
      setTimeout(() => server.closeAllConnections(), graceMs).unref();
      return done;
    },
  };
}

function bind(server: Server, hostname: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** `http://host:port`, with an IPv6 address in brackets. */
function originOf(address: AddressInfo): string {
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}
