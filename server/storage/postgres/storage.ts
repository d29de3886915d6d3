import pg from 'pg';
import { loadContract } from '../../../contract/bundled.ts';
import type { Contract } from '../../../contract/contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { systemClock } from '../../../core/clock.ts';
import { newDeliveryId } from '../../events/identifiers.ts';
import { CURSOR_SECRET_SETTING, type Storage } from '../storage.ts';
import { DEFAULT_POOL_SIZE, describePostgresUrl } from './address.ts';
import { listenForChanges } from './changes.ts';
import { postgresCollectionStores } from './collections.ts';
import { connectionConfig, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_QUERY_TIMEOUT_MS } from './connection.ts';
import { withPostgres } from './errors.ts';
import { PostgresIdempotencyStore } from './idempotency.ts';
import { PostgresKeyStore } from './key-store.ts';
import { migratePostgres } from './migrations.ts';
import { getOrCreatePostgresSecret } from './stored-secret.ts';
import { PostgresWebhookStore } from './webhooks.ts';

export interface PostgresStorageOptions {
  /** Connections the pool opens at most; requests beyond them wait (up to connectTimeoutMs) for one. */
  poolSize?: number;
  clock?: Clock;
  /** How long a request waits for a connection before it fails with UnavailableError. */
  connectTimeoutMs?: number;
  /** How long a statement may take before it fails with UnavailableError. */
  queryTimeoutMs?: number;
  contract?: Contract;
}

/**
 * Storage in the PostgreSQL database at `url`, shared by every instance of the service: migrates
 * it (one instance at a time), then serves from a pool of connections. Whatever keeps PostgreSQL
 * from answering in time becomes UnavailableError (a 503), and the pool recovers by
 * itself once PostgreSQL is back: a connection that failed is dropped and the next query opens
 * a new one.
 */
export async function openPostgresStorage(url: string, options: PostgresStorageOptions = {}): Promise<Storage> {
  const {
    poolSize = DEFAULT_POOL_SIZE,
    clock = systemClock,
    connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
    queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
    contract = loadContract(),
  } = options;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1) {
    throw new RangeError(`The pool size must be a positive integer, not ${poolSize}.`);
  }
  const description = describePostgresUrl(url);
  await migratePostgres(url, connectTimeoutMs, contract);

  const pool = new pg.Pool({ ...connectionConfig(url, { connectTimeoutMs, queryTimeoutMs }), max: poolSize });
  // An idle connection that PostgreSQL or the network closes is reported here; the pool has
  // dropped it already, and a query that needs a connection then opens a new one (or fails with
  // UnavailableError, answered 503 and logged). Without a listener, it would end the process.
  pool.on('error', () => {});
  try {
    const cursorSecret = await getOrCreatePostgresSecret(pool, CURSOR_SECRET_SETTING);
    const idempotency = new PostgresIdempotencyStore(pool);
    const webhooks = new PostgresWebhookStore(pool, clock, newDeliveryId);
    const changes = listenForChanges(url, queryTimeoutMs);
    const keys = new PostgresKeyStore(pool, clock, changes);
    return {
      collections: postgresCollectionStores(
        pool,
        contract,
        idempotency,
        (db, collection, change, item) => webhooks.record(db, collection, change, item),
        changes,
      ),
      idempotency,
      webhooks,
      keys,
      cursorSecret,
      async ping() {
        await withPostgres(() => pool.query('SELECT 1'));
      },
      close: async () => {
        await Promise.all([changes.close(), pool.end()]);
      },
      description,
    };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
