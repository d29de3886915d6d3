import type { Hono } from 'hono';
import { loadContract, rateLimitRules } from '../contract/index.ts';
import type { AppDeps } from '../core/app.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import type { CollectionStores } from '../core/collections/store.ts';
import type { AppEnv } from '../core/http-types.ts';
import { type MemoryRateLimiter, memoryLimiters } from '../core/limiter/memory-rate-limiter.ts';
import { banPolicy } from '../core/limiter/rate-policy.ts';
import { type Database, openDatabase } from './database.ts';
import { SqliteKeyStore } from './keys/sqlite-key-store.ts';
import { createServiceApp } from './service-app.ts';
import { sqliteCollectionStores } from './store/sqlite-collections.ts';
import { SqliteIdempotencyStore } from './store/sqlite-idempotency.ts';
import { CURSOR_SECRET_SETTING } from './store/storage.ts';
import { getOrCreateSecret } from './store/stored-secret.ts';

export interface ServiceOptions extends Pick<AppDeps, 'logger' | 'clientAddress' | 'corsOrigins' | 'contract'> {
  databasePath: string;
  clock?: Clock;
}

export interface Service {
  app: Hono<AppEnv>;
  db: Database;
  collections: CollectionStores;
  keys: SqliteKeyStore;
  limiters: { keys: MemoryRateLimiter; addresses: MemoryRateLimiter };
  close(): void;
}

/**
 * The service with its production parts: SQLite storage and keys, in-memory limiters, with the
 * database at hand for the tests that look into it.
 */
export function openService({
  databasePath,
  clock = systemClock,
  contract = loadContract(),
  ...deps
}: ServiceOptions): Service {
  const db = openDatabase(databasePath, contract);
  const idempotency = new SqliteIdempotencyStore(db);
  const collections = sqliteCollectionStores(db, contract, idempotency);
  const keys = new SqliteKeyStore(db, clock);
  const ban = banPolicy(rateLimitRules(contract.document).ban);
  const limiters = memoryLimiters({ clock, ban });
  const storage = { collections, keys, idempotency, cursorSecret: getOrCreateSecret(db, CURSOR_SECRET_SETTING) };
  const app = createServiceApp({
    ...deps,
    contract,
    storage,
    limiters,
    clock,
    // Storage is this process's SQLite file, which answers while the process does.
    probes: {
      storage: async () => void (await collections('pets').list({ limit: 1, filters: {} })),
      limiter: async () => {},
      stopping: () => false,
    },
  });
  return { app, db, collections, keys, limiters, close: () => db.close() };
}
