// What only SQLite shows: its query plans, its read cache and its group commit. The behaviour both engines share is
// in collection-store.test.ts, which runs on SQLite too.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import type { CollectionStore } from '../../../core/collections/store.ts';
import { UnavailableError } from '../../../core/errors.ts';
import type { Pet } from '../../../generated/openapi.ts';
import { collectionTables } from '../../../server/storage/collection-tables.ts';
import { pageQuery, sqliteCollectionStores } from '../../../server/storage/sqlite/collections.ts';
import type { Database } from '../../../server/storage/sqlite/database.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { defined } from '../../support/defined.ts';

let db: Database;
let store: CollectionStore<Pet>;

/** The pets collection's store on `db`, as the service opens it. */
const petStore = () => sqliteCollectionStores(db, loadContract())('pets') as CollectionStore<Pet>;

beforeEach(() => {
  db = openDatabase(':memory:');
  store = petStore();
});
afterEach(() => db.close());

describe('SQLite collection store read cache', () => {
  it('hands out pets no caller can alter for the next reader', async () => {
    const pet = await store.create({ name: 'Pet 1', categoryId: 1, status: 'available' });
    const listed = (await store.list({ limit: 10 })).items;
    expect(() => listed.push(pet)).toThrow(TypeError);
    expect(() => Object.assign(defined(listed[0], 'a listed pet'), { name: 'Changed' })).toThrow(TypeError);
    expect(await store.list({ limit: 10 })).toEqual({ items: [pet], hasMore: false, position: pet.id });
  });
});

describe('SQLite collection queries', () => {
  function planOf(sql: string, ...parameters: unknown[]): string[] {
    return db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...parameters)
      .map((row) => row.detail);
  }

  function fillSkewed(): void {
    const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, 1, ?)');
    db.transaction(() => {
      for (let index = 0; index < 20_000; index += 1) insert.run('Pet', index % 1000 === 0 ? 'sold' : 'available');
    })();
    db.exec('ANALYZE');
  }

  const filtered = collectionTables(loadContract()).flatMap((table) =>
    [...table.filterIndexes].map(([filter, { index, column }]) => ({ table, filter, index, column })),
  );

  it.each(filtered)(
    'seeks a page of $table.name filtered by $filter through the ($column, $table.order) index without sorting',
    ({ table, filter, index, column }) => {
      const plan = planOf(pageQuery(table, [filter]), 'x', 0, 21);
      expect(plan).toEqual([`SEARCH ${table.name} USING INDEX ${index} (${column}=? AND ${table.order}>?)`]);
    },
  );

  it('keeps seeking the pets of a status through its index when statistics say one status is nearly every pet', () => {
    fillSkewed();
    const [pets] = collectionTables(loadContract()).filter((table) => table.name === 'pets');
    for (const status of ['available', 'sold']) {
      const plan = planOf(pageQuery(defined(pets, 'the pets table'), ['status']), status, 0, 21);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH pets USING INDEX pets_status_id \(status=\? AND id>\?\)$/)]);
      expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it.each(collectionTables(loadContract()))(
    'seeks an unfiltered page of $name on the id or position (rowid) without sorting',
    (table) => {
      const plan = planOf(pageQuery(table, []), 0, 21);
      expect(plan).toEqual([`SEARCH ${table.name} USING INTEGER PRIMARY KEY (rowid>?)`]);
    },
  );
});

describe('SQLite collection store group commit', () => {
  /** A store on `db` whose transactions are counted: one per run of a transaction's body. */
  function countingStore(): { store: CollectionStore<Pet>; transactions: () => number } {
    let transactions = 0;
    const transaction = db.transaction.bind(db);
    vi.spyOn(db, 'transaction').mockImplementation(((body: (...args: unknown[]) => unknown) =>
      transaction((...args: unknown[]) => {
        transactions += 1;
        return body(...args);
      })) as typeof db.transaction);
    return { store: petStore(), transactions: () => transactions };
  }

  const newPet = (index: number) => ({ name: `Pet ${index}`, categoryId: index + 1, status: 'available' as const });
  const count = () => db.prepare('SELECT count(*) FROM pets').pluck().get();

  it('writes pets created at once in one transaction, each resolved with its own id in the order of creation', async () => {
    const { store, transactions } = countingStore();
    const created = await Promise.all(Array.from({ length: 100 }, (_, index) => store.create(newPet(index))));

    expect(transactions()).toBe(1);
    expect(created).toEqual(created.map((_, index) => ({ id: expect.any(Number), ...newPet(index) })));
    const ids = created.map((pet) => pet.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(100);
    expect(await store.list({ limit: 200 })).toEqual({ items: created, hasMore: false, position: ids.at(-1) });
  });

  it('caps a transaction at 256 pets and writes the rest in the next ones, still in order', async () => {
    const { store, transactions } = countingStore();
    const created = await Promise.all(Array.from({ length: 600 }, (_, index) => store.create(newPet(index))));

    expect(transactions()).toBe(3);
    expect(created.map((pet) => pet.id)).toEqual(created.map((_, index) => index + 1));
    expect(count()).toBe(600);
  });

  it('gives a pet created while a batch is being written a later transaction', async () => {
    const { store, transactions } = countingStore();
    const first = store.create(newPet(0));
    const second = first.then(() => store.create(newPet(1)));
    expect((await first).id).toBeLessThan((await second).id);
    expect(transactions()).toBe(2);
  });

  it('refuses only the create whose name cannot be stored, and stores the rest of its batch', async () => {
    const { store, transactions } = countingStore();
    const results = await Promise.allSettled([
      store.create(newPet(0)),
      store.create({ ...newPet(1), name: 'Lone \uD800' }),
      store.create(newPet(2)),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: expect.any(RangeError) });
    expect(transactions()).toBe(1);
    expect(count()).toBe(2);
  });

  it('refuses every pet of a batch whose transaction fails, stores none of them, and stores the next pet', async () => {
    const { store, transactions } = countingStore();
    await store.create(newPet(0));
    const pagesInUse = db.prepare('PRAGMA page_count').pluck().get() as number;
    // The first pets of the batch fit in the pages in use, the later ones need a new page: the
    // transaction fails halfway, as on a full disk, and must roll back the pets it had inserted.
    db.exec(`PRAGMA max_page_count = ${pagesInUse}`);
    const batch = Array.from({ length: 20 }, (_, index) => store.create({ ...newPet(index), name: 'x'.repeat(500) }));
    const results = await Promise.allSettled(batch);

    expect(transactions()).toBe(2);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(UnavailableError);
      expect((result as PromiseRejectedResult).reason.message).toMatch(/SQLITE_FULL/);
    }
    expect(count()).toBe(1);

    db.exec(`PRAGMA max_page_count = ${pagesInUse * 10}`);
    const next: Pet = await store.create(newPet(1));
    expect(next).toEqual({ id: 2, ...newPet(1) });
    expect((await store.list({ limit: 10 })).items.map((pet) => pet.id)).toEqual([1, 2]);
  });
});
