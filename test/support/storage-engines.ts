// The two storage engines, for the behaviour tests that must hold on both: each test gets an
// empty database of the engine, and can open more instances on it and reach it directly.
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import type { Clock } from '../../core/clock.ts';
import type { CollectionStore } from '../../core/collections/store.ts';
import type { Pet } from '../../generated/openapi.ts';
import { collectionTables } from '../../server/storage/collection-tables.ts';
import { openPostgresStorage } from '../../server/storage/postgres/storage.ts';
import { openSqliteStorage } from '../../server/storage/sqlite/storage.ts';
import type { Storage } from '../../server/storage/storage.ts';
import { createTestDatabase } from '../../support/backing-services.ts';
import { defined } from './defined.ts';
import { useTempDirs } from './temp-dir.ts';

export type StorageEngine = 'SQLite' | 'PostgreSQL';

/** The pets collection of `storage`, typed. */
export function petsIn(storage: Pick<Storage, 'collections'>): CollectionStore<Pet> {
  return storage.collections('pets') as CollectionStore<Pet>;
}

export interface EmptyDatabase {
  /** The storage opened on this test's empty database. */
  storage(): Storage;
  /** Another storage on the same database, as a second server instance or the keys tool opens it; closed after the test. */
  openAnother(): Promise<Storage>;
  /** Closes the test's storage and opens it again on the same database, as a restarted server does. */
  reopen(): Promise<Storage>;
  /** Runs SQL on the database directly, as an operator or another program would, and returns its rows. */
  query(sql: string): Promise<unknown[]>;
}

/** Registers the hooks that give each test of the calling suite an empty database of `engine`. */
export function useEmptyDatabase(engine: StorageEngine, clock?: Clock): EmptyDatabase {
  return engine === 'SQLite' ? useEmptySqlite(clock) : useEmptyPostgres(clock);
}

function useEmptySqlite(clock?: Clock): EmptyDatabase {
  const tempDir = useTempDirs();
  let path = '';
  const opened = useOpenedStorages(() => openSqliteStorage(path, clock));
  beforeEach(async () => {
    path = join(tempDir(), 'store.db');
    await opened.openMain();
  });
  return {
    ...opened.access,
    async query(sql) {
      const db = new Sqlite(path);
      try {
        const prepared = db.prepare(sql);
        if (prepared.reader) return prepared.all();
        prepared.run();
        return [];
      } finally {
        db.close();
      }
    },
  };
}

/**
 * One database per test file, created on first use and dropped after the file; before each
 * test, its tables are emptied and their ids restarted, so every test starts as on a new one.
 */
function useEmptyPostgres(clock?: Clock): EmptyDatabase {
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let direct: pg.Client | undefined;
  const url = () => defined(database, 'the test database').url;
  // Two connections per storage: enough to show that statements are shared across connections.
  const opened = useOpenedStorages(() => openPostgresStorage(url(), { clock, poolSize: 2 }));
  const query = async (sql: string) => (await defined(direct, 'the direct connection').query(sql)).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
  });
  afterAll(async () => {
    await direct?.end();
    await database?.drop();
  });
  beforeEach(async () => {
    // Opening first: it creates the tables in the new database.
    await opened.openMain();
    // Every table of data: the keys and each collection of the contract.
    const tables = ['api_keys', 'idempotency_keys', ...collectionTables(loadContract()).map((table) => table.name)];
    await query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY`);
  });
  return { ...opened.access, query };
}

/** The storages a test opens, all closed after it. */
function useOpenedStorages(open: () => Storage | Promise<Storage>) {
  let main: Storage | undefined;
  const others: Storage[] = [];
  afterEach(async () => {
    await Promise.all(others.splice(0).map((storage) => storage.close()));
    await main?.close();
    main = undefined;
  });
  return {
    async openMain() {
      main = await open();
    },
    access: {
      storage: () => defined(main, 'the storage of the test'),
      async openAnother() {
        const storage = await open();
        others.push(storage);
        return storage;
      },
      async reopen() {
        await defined(main, 'the storage of the test').close();
        main = undefined;
        main = await open();
        return main;
      },
    } satisfies Omit<EmptyDatabase, 'query'>,
  };
}
