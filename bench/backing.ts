// PostgreSQL and Redis for the bench, where they run (TEST_POSTGRES_URL and TEST_REDIS_URL, as for
// the tests): a fresh database and a fresh Redis key prefix per use, dropped and deleted after it.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createTestDatabase, POSTGRES_ADMIN_URL, REDIS_TEST_URL } from '../support/backing-services.ts';

/** Why the PostgreSQL + Redis figures cannot be measured here, or undefined when both answer. */
export async function backingServicesMissing(): Promise<string | undefined> {
  try {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
    await client.connect();
    await client.end();
  } catch {
    return 'PostgreSQL not reachable';
  }
  const redis = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
  // The failure is reported by `connect`; without a listener ioredis would print it again.
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch {
    return 'Redis not reachable';
  } finally {
    redis.disconnect();
  }
}

/** The server's environment for PostgreSQL + Redis. */
export interface BackingEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  REDIS_KEY_PREFIX: string;
}

/** Runs `use` with a new database and a new Redis prefix, and removes both afterwards. */
export async function withBackingServices<T>(use: (env: BackingEnv) => Promise<T>): Promise<T> {
  const database = await createTestDatabase();
  const prefix = `animal-store-bench:${randomBytes(6).toString('hex')}:`;
  try {
    return await use({ DATABASE_URL: database.url, REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: prefix });
  } finally {
    await database.drop();
    const redis = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
    try {
      const keys: string[] = [];
      for await (const names of redis.scanStream({ match: `${prefix}*`, count: 1000 })) keys.push(...names);
      if (keys.length > 0) await redis.unlink(...keys);
    } finally {
      redis.disconnect();
    }
  }
}
