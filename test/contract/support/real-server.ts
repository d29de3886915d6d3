import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from '../../../server/app.ts';
import { clientAddressResolver } from '../../../server/client-address.ts';
import { systemClock, type Clock } from '../../../server/clock.ts';
import { getOrCreateSecret, openDatabase } from '../../../server/database.ts';
import { SqliteKeyStore } from '../../../server/keys/sqlite-key-store.ts';
import { createMemoryRateLimiter } from '../../../server/limiter/memory-rate-limiter.ts';
import { createLogger } from '../../../server/logger.ts';
import { SqlitePetStore } from '../../../server/store/sqlite-pet-store.ts';

export interface RealServer {
  /** Scheme, host and port; the API is under `/v1`. */
  origin: string;
  /** An enterprise key whose limits no case reaches. */
  apiKey: string;
  freePlanKeys: string[];
  close(): Promise<void>;
}

export interface RealServerOptions {
  clock?: Clock;
  freePlanKeys?: number;
}

/**
 * The service wired as `server/main.ts` wires it (SQLite, real keys and limiters, the socket's
 * peer address), in memory, listening on a free port of 127.0.0.1.
 */
export async function startRealServer({ clock = systemClock, freePlanKeys = 0 }: RealServerOptions = {}): Promise<RealServer> {
  const db = openDatabase(':memory:');
  const keys = new SqliteKeyStore(db, clock);
  const app = createApp({
    pets: new SqlitePetStore(db),
    keys,
    limiters: { keys: createMemoryRateLimiter({ clock }), addresses: createMemoryRateLimiter({ clock }) },
    clock,
    logger: createLogger('silent'),
    cursorSecret: getOrCreateSecret(db, 'cursor-secret'),
    clientAddress: clientAddressResolver(false),
  });
  const { secret: apiKey } = await keys.create({ plan: 'enterprise', label: 'contract suite', perMinute: 10_000_000, perDay: 10_000_000 });
  const free: string[] = [];
  for (let index = 0; index < freePlanKeys; index++) free.push((await keys.create({ plan: 'free', label: `contract suite free ${index}` })).secret);

  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve({ server: listening, port: info.port }));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    apiKey,
    freePlanKeys: free,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          db.close();
          if (error) reject(error);
          else resolve();
        });
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
