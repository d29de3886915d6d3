import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '../../../contract/bundled.ts';
import { type Clock, systemClock } from '../../../core/clock.ts';
import { createLogger } from '../../../core/logger.ts';
import { listen } from '../../../node/listen.ts';
import { clientAddressResolver } from '../../../server/app/client-address.ts';
import type { StorageConfig } from '../../../server/process/config.ts';
import { openService } from '../../../server/service.ts';
import { seedDatabase } from '../../../server/tools/db/seed.ts';
import { failStorage, type StorageFailure } from '../failing-storage.ts';

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
  /** Every read and write of the collections fails (test/support/failing-storage.ts); keys still work. */
  failingStorage?: StorageFailure;
  /** The database starts with the contract's example items under their ids, as `npm run db:seed` fills it. */
  seeded?: boolean;
}

/** A public address (example.com's, in no range a webhook target is refused for). */
const PUBLIC_DOCUMENTATION_ADDRESS = '93.184.215.14';

/**
 * The service wired as `server/process/main.ts` wires it (SQLite, real keys and limiters, the socket's
 * peer address), in memory unless seeded, listening on a free port of 127.0.0.1.
 */
export async function startRealServer({
  clock = systemClock,
  freePlanKeys = 0,
  failingStorage,
  seeded = false,
}: RealServerOptions = {}): Promise<RealServer> {
  // Seeded by its path, as `npm run db:seed` does: a file, since each opening of `:memory:` is a database of its own.
  const seedDir = seeded ? await mkdtemp(join(tmpdir(), 'seeded-server-')) : undefined;
  const storage: StorageConfig = { engine: 'sqlite', path: seedDir ? join(seedDir, 'animal-store.db') : ':memory:' };
  if (seedDir) await seedDatabase(storage);
  const service = await openService({
    storage,
    clock,
    logger: createLogger('silent'),
    clientAddress: clientAddressResolver(false),
    // Webhook targets' names resolve at once to a public address: the suite's and the fuzzer's
    // generated URLs name hosts that no resolver here knows, and a lookup that waits on a network
    // this machine may not have would decide the tests' pace.
    resolveHost: async () => [PUBLIC_DOCUMENTATION_ADDRESS],
  });
  if (failingStorage) failStorage(service.storage, failingStorage);
  const { keys } = service.storage;
  const { secret: apiKey } = await keys.create({
    plan: 'enterprise',
    label: 'contract suite',
    perMinute: 10_000_000,
    perDay: 10_000_000,
  });
  const free: string[] = [];
  for (let index = 0; index < freePlanKeys; index++)
    free.push((await keys.create({ plan: 'free', label: `contract suite free ${index}` })).secret);

  const listening = await listen(service.app.fetch, '127.0.0.1', 0, { maxBodyBytes: loadContract().largestBodyBytes });
  return {
    origin: listening.origin,
    apiKey,
    freePlanKeys: free,
    close: async () => {
      await listening.close();
      await service.close();
      if (seedDir) await rm(seedDir, { recursive: true, force: true });
    },
  };
}
