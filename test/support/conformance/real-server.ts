import { loadContract } from '../../../contract/bundled.ts';
import { type Clock, systemClock } from '../../../core/clock.ts';
import { createLogger } from '../../../core/logger.ts';
import { listen } from '../../../node/listen.ts';
import { clientAddressResolver } from '../../../server/app/client-address.ts';
import { openService } from '../../../server/service.ts';
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
}

/**
 * The service wired as `server/process/main.ts` wires it (SQLite, real keys and limiters, the socket's
 * peer address), in memory, listening on a free port of 127.0.0.1.
 */
/** A public address (example.com's, in no range a webhook target is refused for). */
const PUBLIC_DOCUMENTATION_ADDRESS = '93.184.215.14';

export async function startRealServer({
  clock = systemClock,
  freePlanKeys = 0,
  failingStorage,
}: RealServerOptions = {}): Promise<RealServer> {
  const service = await openService({
    storage: { engine: 'sqlite', path: ':memory:' },
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
      service.close();
    },
  };
}
