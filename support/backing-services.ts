// PostgreSQL and Redis for the tests that need them. On a machine without them those tests skip
// with one line saying why; `.ci/run` sets REQUIRE_BACKING_SERVICES=1, which turns the skip
// into a failure, so CI always runs them.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REQUIRED = process.env.REQUIRE_BACKING_SERVICES === '1';

async function reachable(name: string, probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const reason = `${name} is not reachable (${error instanceof Error ? error.message : String(error)})`;
    if (REQUIRED) throw new Error(`${reason}, and REQUIRE_BACKING_SERVICES=1 says the tests that need it must run.`);
    console.warn(`Skipping the tests that need ${name}: ${reason}.`);
    return false;
  }
}

let postgres: Promise<boolean> | undefined;
let redis: Promise<boolean> | undefined;

/** Whether PostgreSQL answers at POSTGRES_ADMIN_URL (asked once per test file). */
export function postgresReachable(): Promise<boolean> {
  postgres ??= reachable('PostgreSQL', async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
    await client.connect();
    await client.end();
  });
  return postgres;
}

/** Whether Redis answers at REDIS_TEST_URL (asked once per test file). */
export function redisReachable(): Promise<boolean> {
  redis ??= reachable('Redis', async () => {
    const client = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
    // The failure is reported by `connect`; without a listener ioredis would print it again.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
    } finally {
      client.disconnect();
    }
  });
  return redis;
}

/** A new, empty PostgreSQL database of its own for one test or file, and how to drop it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `animal_store_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const dropper = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** A key prefix of its own in Redis for one test or file, so tests can run in parallel. */
export function redisTestPrefix(): string {
  return `animal-store-test:${randomBytes(6).toString('hex')}:`;
}
