import type { Hono } from 'hono';
import { loadContract, rateLimitRules } from '../contract/index.ts';
import { type AppDeps, createApp } from '../core/app.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import type { AppEnv } from '../core/http-types.ts';
import { type MemoryRateLimiter, memoryLimiters } from '../core/limiter/memory-rate-limiter.ts';
import { banPolicy } from '../core/limiter/rate-policy.ts';
import { type Database, openDatabase } from './database.ts';
import { SqliteKeyStore } from './keys/sqlite-key-store.ts';
import { SqlitePetStore } from './store/sqlite-pet-store.ts';
import { CURSOR_SECRET_SETTING } from './store/storage.ts';
import { getOrCreateSecret } from './store/stored-secret.ts';

export interface ServiceOptions extends Pick<AppDeps, 'logger' | 'clientAddress' | 'corsOrigins' | 'contract'> {
  databasePath: string;
  clock?: Clock;
}

export interface Service {
  app: Hono<AppEnv>;
  db: Database;
  pets: SqlitePetStore;
  keys: SqliteKeyStore;
  limiters: { keys: MemoryRateLimiter; addresses: MemoryRateLimiter };
  close(): void;
}

/**
 * The service with its production parts: SQLite storage and keys, in-memory limiters. The
 * process, the stateful mock and the tests all wire it here, so they run the same thing.
 */
export function openService({
  databasePath,
  clock = systemClock,
  contract = loadContract(),
  ...deps
}: ServiceOptions): Service {
  const db = openDatabase(databasePath);
  const pets = new SqlitePetStore(db);
  const keys = new SqliteKeyStore(db, clock);
  const ban = banPolicy(rateLimitRules(contract.document).ban);
  const limiters = memoryLimiters({ clock, ban });
  const app = createApp({
    ...deps,
    contract,
    pets,
    keys,
    limiters,
    clock,
    cursorSecret: getOrCreateSecret(db, CURSOR_SECRET_SETTING),
  });
  return { app, db, pets, keys, limiters, close: () => db.close() };
}
