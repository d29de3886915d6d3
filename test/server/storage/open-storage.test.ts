import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableError, UsageError } from '../../../core/errors.ts';
import type { Environment } from '../../../node/variables.ts';
import { readStorageConfig } from '../../../server/process/config.ts';
import { openStorage } from '../../../server/storage/open.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const withPostgres = await postgresReachable();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(env: Environment): Promise<Storage> {
  const storage = await openStorage(readStorageConfig(env));
  cleanups.push(() => storage.close());
  return storage;
}

/** Nothing listens there: a variable refused before connecting fails with its own error, not a connection error. */
const UNREACHABLE_URL = 'postgres://postgres:hunter2@127.0.0.1:1/animals';

describe('openStorage as the environment configures it', () => {
  it.each([
    ['unset', undefined],
    ['empty', ''],
  ])('opens SQLite at DATABASE_PATH when DATABASE_URL is %s', async (_, databaseUrl) => {
    const path = join(tempDir(), 'store.db');
    const storage = await open({ DATABASE_PATH: path, DATABASE_URL: databaseUrl });
    expect(storage.description).toBe(`SQLite at ${path}`);
  });

  it.skipIf(!withPostgres)('opens PostgreSQL at DATABASE_URL when it is set', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const storage = await open({ DATABASE_URL: database.url, DATABASE_PATH: join(tempDir(), 'unused.db') });
    const { hostname, port, pathname } = new URL(database.url);
    expect(storage.description).toBe(`PostgreSQL at ${hostname}:${port}${pathname}`);
    await expect(storage.ping()).resolves.toBeUndefined();
  });
});

describe.skipIf(!withPostgres)('openStorage at start-up, while PostgreSQL cannot be reached yet', () => {
  it('tries again, saying so each time, until PostgreSQL answers within the time it is given', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
    cleanups.push(() => proxy.close());
    await proxy.refuse();
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    const retried: string[] = [];
    const opening = openStorage(readStorageConfig({ DATABASE_URL: proxied.href }), {
      retries: { forMs: 60_000, onRetry: (error) => retried.push(error.reason) },
    });
    // PostgreSQL comes up once the start has been refused at least twice.
    await expect.poll(() => retried.length).toBeGreaterThanOrEqual(2);
    await proxy.forward();
    const storage = await opening;
    cleanups.push(() => storage.close());
    await expect(storage.ping()).resolves.toBeUndefined();
  });

  it('gives up with the UnavailableError once its time is over', async () => {
    const opening = openStorage(readStorageConfig({ DATABASE_URL: UNREACHABLE_URL }), {
      retries: { forMs: 600, onRetry: () => {} },
    });
    await expect(opening).rejects.toBeInstanceOf(UnavailableError);
  });
});

describe('readStorageConfig', () => {
  it.each(['0', '1001', 'ten', '1.5', '-1', ' 5'])(
    'refuses DATABASE_POOL_SIZE=%j with a UsageError naming the variable and its range',
    (size) => {
      const reading = () => readStorageConfig({ DATABASE_URL: UNREACHABLE_URL, DATABASE_POOL_SIZE: size });
      expect(reading).toThrow(UsageError);
      expect(reading).toThrow(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000; got "${size}".`);
    },
  );

  it.each([
    ['another scheme', 'mysql://root:hunter2@127.0.0.1/animals'],
    ['no URL at all', 'hunter2@127.0.0.1/animals'],
  ])('refuses a DATABASE_URL with %s with a UsageError that does not repeat it', (_, url) => {
    const reading = () => readStorageConfig({ DATABASE_URL: url });
    expect(reading).toThrow(UsageError);
    expect(reading).toThrow(/^DATABASE_URL must be a PostgreSQL URL/);
    expect(reading).not.toThrow(/hunter2/);
  });
});
