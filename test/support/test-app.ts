import { loadContract } from '../../contract/bundled.ts';
import type { CollectionStore } from '../../core/collections/store.ts';
import type { NewApiKey } from '../../core/keys/key-store.ts';
import { createLogger, type LogLevel } from '../../core/logger.ts';
import type { Pet } from '../../generated/openapi.ts';
import type { ResolveHost } from '../../server/events/public-address.ts';
import { openService } from '../../server/service.ts';
import { openDatabase } from '../../server/storage/sqlite/database.ts';
import { sqliteStorage } from '../../server/storage/sqlite/storage.ts';
import type { ServiceTelemetry } from '../../server/telemetry/telemetry.ts';
import { FakeClock } from './fake-clock.ts';

export interface TestAppOptions {
  /** The plan of the key `request` sends; enterprise with generous limits by default, so limits stay out of the way. */
  key?: NewApiKey;
  clientAddress?: string;
  corsOrigins?: string[];
  logLevel?: LogLevel;
  /** Metrics and traces, as the process opens them from its configuration. */
  telemetry?: ServiceTelemetry;
  /** WEBHOOKS_ALLOW_PRIVATE: webhooks to the test's own local receivers. */
  webhooksAllowPrivate?: boolean;
  /** How webhook targets' names resolve; the service's own resolver by default. */
  resolveHost?: ResolveHost;
}

/**
 * The real app with its real parts (SQLite in memory, the key store, the memory limiter) and a
 * fake clock, driven in-process through `app.request`.
 */
export async function createTestApp(options: TestAppOptions = {}) {
  const clock = new FakeClock();
  const logLines: string[] = [];
  let clientAddress = options.clientAddress ?? '192.0.2.1';
  // The database is opened here, so tests can also look into it beside the service.
  const contract = loadContract();
  const db = openDatabase(':memory:', contract);
  const service = await openService(
    {
      clock,
      contract,
      logger: createLogger(options.logLevel ?? 'info', (line) => logLines.push(line)),
      clientAddress: () => clientAddress,
      corsOrigins: options.corsOrigins,
      telemetry: options.telemetry,
      webhooksAllowPrivate: options.webhooksAllowPrivate,
      resolveHost: options.resolveHost,
    },
    { storage: sqliteStorage(db, ':memory:', clock, contract, options.telemetry?.storage) },
  );
  const { app, limiters, close } = service;
  const { collections, keys } = service.storage;
  const { secret: apiKey } = await keys.create(
    options.key ?? { plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 },
  );

  /** A request to `path` with the test key, unless `headers` sets another `Authorization`. */
  function request(path: string, init: RequestInit & { json?: unknown } = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${apiKey}`);
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    }
    return app.request(path, { ...init, headers, body });
  }

  return {
    app,
    db,
    collections,
    /** The pets collection, typed: most tests of the HTTP layer create or read pets. */
    pets: collections('pets') as CollectionStore<Pet>,
    keys,
    /** The service's storage, its webhooks among it. */
    storage: service.storage,
    limiters,
    clock,
    apiKey,
    logLines,
    request,
    setClientAddress(address: string) {
      clientAddress = address;
    },
    close,
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
