import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';

export interface Listening {
  server: ServerType;
  /** Scheme, host and port, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Stops listening and drops open connections at once (for tests and the mock, not for a graceful stop). */
  close(): Promise<void>;
}

/** Serves `fetch` on `hostname:port` (0: a free port) and resolves once it listens. */
export function listen(fetch: (request: Request) => Response | Promise<Response>, hostname: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port }, (info: AddressInfo) =>
      resolve({
        server,
        origin: `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`,
        close: () =>
          new Promise<void>((closed, failed) => {
            server.close((error) => (error ? failed(error) : closed()));
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      }),
    );
    server.once('error', reject);
  });
}
