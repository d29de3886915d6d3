import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, type Fetch, type HttpServerOptions } from './http/create-server.ts';
import { createLogger } from './logger.ts';

export interface Listening {
  server: Server;
  /** Scheme, host and port, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Stops listening and drops open connections at once (for tests and the mock, not for a graceful stop). */
  close(): Promise<void>;
}

/** Serves `fetch` on `hostname:port` (0: a free port) and resolves once it listens. */
export async function listen(
  fetch: Fetch,
  hostname: string,
  port: number,
  options: HttpServerOptions = { logger: createLogger('warn') },
): Promise<Listening> {
  const server = createHttpServer(fetch, options);
  const address = await bind(server, hostname, port);
  return {
    server,
    origin: originOf(address),
    close: () =>
      new Promise<void>((closed, failed) => {
        server.close((error) => (error ? failed(error) : closed()));
        server.closeAllConnections();
      }),
  };
}

/** Binds the server to `hostname:port`; rejects with the system's error (a busy port, an unknown host). */
export function bind(server: Server, hostname: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** `http://host:port`, with an IPv6 address in brackets. */
export function originOf(address: AddressInfo): string {
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}
