// What only PostgreSQL shows: migrations by instances starting at once, its limits on values,
// its pool, its read caches across instances, and what requests get while the database cannot
// be reached.

import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { Contract } from '../../../contract/contract.ts';
import type { OpenApiDocument } from '../../../contract/document.ts';
import type { CollectionStore } from '../../../core/collections/store.ts';
import { UnavailableError } from '../../../core/errors.ts';
import type { Pet } from '../../../generated/openapi.ts';
import { collectionTables, SERVICE_TABLES } from '../../../server/storage/collection-tables.ts';
import { LISTENER_NAME } from '../../../server/storage/postgres/changes.ts';
import { pageStatement } from '../../../server/storage/postgres/collections.ts';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../../server/storage/postgres/migrations.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { petsIn } from '../../support/storage-engines.ts';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';

/** The bound on a request's wait while PostgreSQL is unreachable. */
const UNAVAILABLE_WITHIN_MS = 2_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emptyDatabase() {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database;
}

async function open(url: string, options: Parameters<typeof openPostgresStorage>[1] = {}): Promise<Storage> {
  const storage = await openPostgresStorage(url, options);
  cleanups.push(() => storage.close());
  return storage;
}

/** Runs `sql` on the database at `url` through a connection of its own. */
async function query<Row extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Resolves to what `work` rejected with, and how long the storage took: the time it took, less the
 * time this thread was ready to run but waited for a core. A loaded machine can keep a process
 * from running for seconds after the storage's timer fired; that wait is the machine's, and the
 * storage's own bound is what is measured. Linux counts the wait (`/proc/thread-self/schedstat`);
 * elsewhere none is left out.
 */
async function failureOf(work: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const waitedBefore = waitedForCoreMs();
  try {
    await work();
  } catch (error) {
    return { error, ms: performance.now() - started - (waitedForCoreMs() - waitedBefore) };
  }
  throw new Error('Expected the call to fail while PostgreSQL is unreachable, but it succeeded.');
}

/** How long this thread has been ready to run but waiting for a core, in milliseconds; 0 where Linux's schedstat is missing. */
function waitedForCoreMs(): number {
  try {
    const [, waitedNs] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    return Number(waitedNs) / 1e6;
  } catch {
    return 0;
  }
}

describe('openPostgresStorage with nothing listening at the address', () => {
  it(`rejects with UnavailableError within ${UNAVAILABLE_WITHIN_MS} ms`, async () => {
    const { error, ms } = await failureOf(() => openPostgresStorage('postgres://postgres@127.0.0.1:1/animals'));
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).reason).toMatch(/ECONNREFUSED/);
    expect(ms).toBeLessThan(UNAVAILABLE_WITHIN_MS);
  });
});

describe.skipIf(!(await postgresReachable()))('openPostgresStorage', () => {
  it('migrates an empty database once when three instances start on it at once, and they share one cursor secret', async () => {
    const { url } = await emptyDatabase();
    const storages = await Promise.all([open(url), open(url), open(url)]);

    expect(await query(url, 'SELECT version FROM schema_migrations ORDER BY version')).toEqual(
      POSTGRES_MIGRATIONS.map(({ version }) => ({ version })),
    );
    const tables = await query<{ name: string }>(
      url,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    // The service's own tables and one per collection of the contract.
    const expected = [...SERVICE_TABLES, ...collectionTables(loadContract()).map((table) => table.name)];
    expect(tables.map(({ name }) => name)).toEqual(expected.sort());
    const [first, ...others] = storages.map((storage) => storage.cursorSecret);
    for (const secret of others) expect(secret).toEqual(first);
  });

  it('refuses a database at a newer schema version than the program knows, naming both', async () => {
    const { url } = await emptyDatabase();
    await migratePostgres(url, 1_500, loadContract());
    await query(url, 'INSERT INTO schema_migrations (version) VALUES (99)');
    await expect(openPostgresStorage(url)).rejects.toThrow(
      `The database is at schema version 99, newer than this program knows (${POSTGRES_MIGRATIONS.length}); run a newer version of the service.`,
    );
  });

  it('keeps the webhook endpoints a database of the seventh step holds, now kept by the collection layer', async () => {
    const { url } = await emptyDatabase();
    // The database as a server of release 1.1.0's contract and seven steps left it.
    const released = new Contract(
      JSON.parse(
        readFileSync(new URL('../../../releases/1.1.0/openapi.json', import.meta.url), 'utf8'),
      ) as OpenApiDocument,
    );
    await migratePostgres(url, 1_500, released, POSTGRES_MIGRATIONS.slice(0, 7));
    await query(
      url,
      `INSERT INTO webhook_endpoints (id, key_line, url, events, secret, created_at)
        VALUES ('we_3kT9qWmZx1B7vLp0aRn5Yc', 1, 'https://93.184.215.14/hooks', ARRAY['pet.created'], 'whsec_x', '2026-11-28T14:00:00.000Z')`,
    );
    const storage = await open(url);
    expect(await storage.collections('webhook_endpoints').get('we_3kT9qWmZx1B7vLp0aRn5Yc')).toEqual({
      id: 'we_3kT9qWmZx1B7vLp0aRn5Yc',
      url: 'https://93.184.215.14/hooks',
      events: ['pet.created'],
      createdAt: '2026-11-28T14:00:00.000Z',
      secret: 'whsec_x',
      keyLine: 1,
    });
  });

  it('leaves the database as it was when a migration step fails', async () => {
    const { url } = await emptyDatabase();
    const failing = [
      ...POSTGRES_MIGRATIONS,
      {
        version: POSTGRES_MIGRATIONS.length + 1,
        sql: 'CREATE TABLE owners (id bigint PRIMARY KEY); SELECT no_such_function()',
      },
    ];
    await expect(migratePostgres(url, 1_500, loadContract(), failing)).rejects.toThrow(/no_such_function/);
    expect(await query(url, "SELECT to_regclass('owners') AS owners, to_regclass('pets') AS pets")).toEqual([
      { owners: null, pets: null },
    ]);
  });

  it('stores a key of any plan and leaves plans to the contract, whose rules the keys tool checks', async () => {
    const { url } = await emptyDatabase();
    await migratePostgres(url, 1_500, loadContract());
    await query(
      url,
      "INSERT INTO api_keys (plan, per_minute, per_day, key_hash, created_at) VALUES ('startup', 10, 100, 'hash', now()), ('free', 10, 100, 'hash-2', now())",
    );
    expect(await query(url, 'SELECT plan FROM api_keys ORDER BY id')).toEqual([{ plan: 'startup' }, { plan: 'free' }]);
  });

  it('describes itself by host, port and database, never with the password of the URL', async () => {
    const { url } = await emptyDatabase();
    const withPassword = new URL(url);
    withPassword.password = 'hunter2';
    const storage = await open(withPassword.href);
    expect(storage.description).toBe(
      `PostgreSQL at ${withPassword.hostname}:${withPassword.port}${withPassword.pathname}`,
    );
  });

  it('refuses a pet name with U+0000, which PostgreSQL text cannot hold, and stores nothing', async () => {
    const pets = petsIn(await open((await emptyDatabase()).url));
    await expect(pets.create({ name: 'Re\u0000x', categoryId: 1, status: 'available' })).rejects.toThrow(RangeError);
    expect(await pets.list({ limit: 10 })).toEqual({ items: [], hasMore: false });
  });

  it('hands out ids beyond 2^32 as exact numbers', async () => {
    const { url } = await emptyDatabase();
    const pets = petsIn(await open(url));
    await query(url, "SELECT setval(pg_get_serial_sequence('pets', 'id'), $1)", [2 ** 40]);
    const created = await pets.create({ name: 'Far', categoryId: 1, status: 'available' });
    expect(created.id).toBe(2 ** 40 + 1);
    expect(await pets.get(2 ** 40 + 1)).toEqual(created);
    expect((await pets.list({ limit: 1, after: 2 ** 40 })).items).toEqual([created]);
  });

  it('opens no more connections than the pool size, however many requests run at once, and one that listens for changes', async () => {
    const { url } = await emptyDatabase();
    // The thirty wait in turn for the two connections: on a loaded machine longer than the default
    // second a request may wait, which is not what this test is about.
    const pets = petsIn(await open(url, { poolSize: 2, connectTimeoutMs: 60_000 }));
    await Promise.all(
      Array.from({ length: 30 }, (_, index) => pets.create({ name: `Pet ${index}`, categoryId: 1, status: 'sold' })),
    );
    const [{ connections } = { connections: -1 }] = await query<{ connections: number }>(
      url,
      "SELECT count(*)::int AS connections FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'animal-store'",
    );
    expect(connections).toBeGreaterThan(0);
    expect(connections).toBeLessThanOrEqual(2);
    await expect
      .poll(async () =>
        query<{ listening: number }>(
          url,
          `SELECT count(*)::int AS listening FROM pg_stat_activity WHERE datname = current_database() AND application_name = '${LISTENER_NAME}'`,
        ),
      )
      .toEqual([{ listening: 1 }]);
    expect((await pets.list({ limit: 100 })).items).toHaveLength(30);
  });
});

describe.skipIf(!(await postgresReachable()))('PostgreSQL collection queries', () => {
  /** The plan of `statement` for `values`, as PostgreSQL runs it: prepared, then executed. */
  async function planOf(url: string, statement: { text: string }, types: string, values: string): Promise<string> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`PREPARE page (${types}) AS ${statement.text}`);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE page (${values})`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.end();
    }
  }

  it('reads a page in id order through an index, without sorting, on a table where one status is nearly every pet', async () => {
    const { url } = await emptyDatabase();
    await migratePostgres(url, 1_500, loadContract());
    await query(
      url,
      "INSERT INTO pets (name, category_id, status) SELECT 'Pet', 1, CASE WHEN n % 1000 = 0 THEN 'sold' ELSE 'available' END FROM generate_series(1, 20000) AS n",
    );
    await query(url, 'ANALYZE pets');

    const pets = defined(
      collectionTables(loadContract()).find((table) => table.name === 'pets'),
      'the pets table',
    );
    const byStatus = pageStatement(pets, ['status']);
    const rare = await planOf(url, byStatus, 'text, bigint, bigint', "'sold', 0, 21");
    expect(rare).toMatch(/Index (Only )?Scan using pets_status_id on pets/);
    const common = await planOf(url, byStatus, 'text, bigint, bigint', "'available', 0, 21");
    const unfiltered = await planOf(url, pageStatement(pets, []), 'bigint, bigint', '0, 21');
    expect(unfiltered).toMatch(/Index Scan using pets_pkey on pets/);
    for (const plan of [rare, common, unfiltered]) {
      expect(plan).not.toMatch(/Sort|Seq Scan/);
    }
  });
});

/** Two instances on one empty database, once both listen for changes. */
async function twoInstances() {
  const { url } = await emptyDatabase();
  const [a, b] = await Promise.all([open(url), open(url)]);
  await expect.poll(() => listeners(url)).toBe(2);
  return { url, a: petsIn(a), b: petsIn(b) };
}

async function listeners(url: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    url,
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
    [LISTENER_NAME],
  );
  return row?.n ?? 0;
}

/**
 * Renames every pet behind the caches' back: with triggers off for the session (a replica's
 * role), no instance is told, so what an instance answers afterwards shows whether it asked.
 */
function renameUnheard(url: string, name: string): Promise<unknown> {
  return query(url, `SET session_replication_role = replica; UPDATE pets SET name = '${name}'`);
}

const names = async (pets: CollectionStore<Pet>) => (await pets.list({ limit: 100 })).items.map((pet) => pet.name);

describe.skipIf(!(await postgresReachable()))('PostgreSQL read caches across instances', () => {
  it('answers a repeated page and item from memory, and forgets them at the next write of any instance', async () => {
    const { url, a, b } = await twoInstances();
    const rex = await a.create({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(await names(b)).toEqual(['Rex']);
    expect((await b.get(rex.id))?.name).toBe('Rex');
    await renameUnheard(url, 'Unheard');
    expect(await names(b)).toEqual(['Rex']);
    expect((await b.get(rex.id))?.name).toBe('Rex');

    await a.create({ name: 'Tom', categoryId: 1, status: 'available' });
    expect(await names(b)).toEqual(['Unheard', 'Tom']);
    expect((await b.get(rex.id))?.name).toBe('Unheard');
  });

  it('never answers a page or an item older than a write either instance acknowledged', async () => {
    const { a, b } = await twoInstances();
    for (let round = 0; round < 30; round++) {
      const [writer, reader] = round % 2 === 0 ? [a, b] : [b, a];
      const before = await names(reader);
      const pet = await writer.create({ name: `Pet ${round}`, categoryId: 1, status: 'available' });
      expect(await names(reader)).toEqual([...before, pet.name]);
      expect(await reader.get(pet.id)).toEqual(pet);

      const sold = await writer.update(pet.id, (current) => ({ ...current, status: 'sold' }));
      expect(await reader.get(pet.id)).toEqual(sold);
      expect((await reader.list({ limit: 100, filters: { status: 'sold' } })).items.at(-1)).toEqual(sold);

      if (round % 3 === 0) {
        await writer.delete(pet.id, () => {});
        expect(await reader.get(pet.id)).toBeUndefined();
        expect(await names(reader)).toEqual(before);
      }
    }
  });

  it("sees an operator's SQL as soon as it committed", async () => {
    const { url, a } = await twoInstances();
    await a.create({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(await names(a)).toEqual(['Rex']);
    await query(url, "UPDATE pets SET name = 'Renamed'");
    expect(await names(a)).toEqual(['Renamed']);
  });

  it('reads PostgreSQL itself while its listening connection is lost, and caches again once it is back', async () => {
    const { url, a } = await twoInstances();
    await a.create({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(await names(a)).toEqual(['Rex']);
    await query(url, 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      LISTENER_NAME,
    ]);
    await renameUnheard(url, 'While lost');
    expect(await names(a)).toEqual(['While lost']);

    let round = 0;
    await expect
      .poll(
        async () => {
          round += 1;
          await names(a);
          await renameUnheard(url, `Round ${round}`);
          return names(a);
        },
        { timeout: 30_000 },
      )
      .not.toEqual([`Round ${round}`]);
  });
});

describe.skipIf(!(await postgresReachable()))('Storage on PostgreSQL while the database cannot be reached', () => {
  /**
   * A storage whose connections go through a proxy the test controls, with a key and a pet in it.
   * The key and the pet are written directly, and the proxied storage is opened again until it opens:
   * the short timeouts under test are for the outage, and a loaded machine may exceed them while
   * everything is still reachable.
   */
  async function throughProxy(options: Parameters<typeof openPostgresStorage>[1] = {}) {
    const { url } = await emptyDatabase();
    const direct = await open(url);
    const { secret } = await direct.keys.create({ plan: 'free' });
    const pet = await petsIn(direct).create({ name: 'Rex', categoryId: 1, status: 'available' });
    const target = new URL(url);
    const proxy: TcpProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(() => proxy.close());
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const storage = await openOnceReachable(proxied.href, { poolSize: 2, ...options });
    // Both storages listen for changes: the proxied one's reads wait on its listening connection too.
    await expect.poll(() => listeners(url)).toBe(2);
    return { proxy, storage, secret, pet };
  }

  /** Opens the storage, again after each UnavailableError (the test's timeout bounds the wait). */
  async function openOnceReachable(url: string, options: Parameters<typeof openPostgresStorage>[1]): Promise<Storage> {
    for (;;) {
      try {
        return await open(url, options);
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
      }
    }
  }

  /** Resolves to what `call` resolves to once it does, retrying while it reports the storage unavailable. */
  async function onceServing<T>(call: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
      }
    }
  }

  function calls(storage: Storage, secret: string, petId: number): Array<[string, () => Promise<unknown>]> {
    return [
      ['create', () => petsIn(storage).create({ name: 'Lost', categoryId: 1, status: 'available' })],
      ['get', () => petsIn(storage).get(petId)],
      ['list', () => petsIn(storage).list({ limit: 10 })],
      ['list by status', () => petsIn(storage).list({ limit: 10, filters: { status: 'available' } })],
      ['findActive', () => storage.keys.findActive(secret)],
      ['ping', () => storage.ping()],
    ];
  }

  async function expectEveryCallUnavailable(storage: Storage, secret: string, petId: number): Promise<void> {
    for (const [name, call] of calls(storage, secret, petId)) {
      const { error, ms } = await failureOf(call);
      expect(error, name).toBeInstanceOf(UnavailableError);
      expect(ms, name).toBeLessThan(UNAVAILABLE_WITHIN_MS);
    }
  }

  it(`answers every call with UnavailableError within ${UNAVAILABLE_WITHIN_MS} ms while PostgreSQL refuses connections, and serves again once it is back, without reopening`, async () => {
    const { proxy, storage, secret, pet } = await throughProxy();
    await proxy.refuse();
    await expectEveryCallUnavailable(storage, secret, pet.id);

    await proxy.forward();
    expect(await petsIn(storage).get(pet.id)).toEqual(pet);
    expect(await storage.keys.findActive(secret)).toMatchObject({ plan: 'free' });
    // The pet refused while PostgreSQL was away was not stored.
    expect((await petsIn(storage).list({ limit: 10 })).items).toEqual([pet]);
  });

  it('answers every call with UnavailableError within the timeouts while the network drops everything, and serves again once it carries', async () => {
    const { proxy, storage, secret, pet } = await throughProxy({ connectTimeoutMs: 300, queryTimeoutMs: 300 });
    proxy.stall();
    await expectEveryCallUnavailable(storage, secret, pet.id);

    await proxy.forward();
    // The 300 ms timeouts may also expire on a loaded machine once the network carries again; what
    // matters is that the same storage serves again without being reopened.
    expect(await onceServing(() => petsIn(storage).get(pet.id))).toEqual(pet);
    expect(await onceServing(() => storage.keys.findActive(secret))).toMatchObject({ plan: 'free' });
  });
});
