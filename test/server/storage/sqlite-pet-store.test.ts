// What only SQLite shows: its query plans and its read cache. The behaviour both engines share is
// in pet-store.test.ts, which runs on SQLite too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/database.ts';
import { openDatabase } from '../../../server/database.ts';
import { PET_QUERIES, SqlitePetStore } from '../../../server/store/sqlite-pet-store.ts';
import { defined } from '../../support/defined.ts';

let db: Database;
let store: SqlitePetStore;

beforeEach(() => {
  db = openDatabase(':memory:');
  store = new SqlitePetStore(db);
});
afterEach(() => db.close());

describe('SqlitePetStore read cache', () => {
  it('hands out pets no caller can alter for the next reader', async () => {
    const pet = await store.create({ name: 'Pet 1', categoryId: 1, status: 'available' });
    const listed = (await store.list({ limit: 10 })).pets;
    expect(() => listed.push(pet)).toThrow(TypeError);
    expect(() => Object.assign(defined(listed[0], 'a listed pet'), { name: 'Changed' })).toThrow(TypeError);
    expect(await store.list({ limit: 10 })).toEqual({ pets: [pet], hasMore: false });
  });
});

describe('SqlitePetStore queries', () => {
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

  it.each([
    ['an empty table', () => {}],
    ['statistics of a table where one status is nearly every pet', fillSkewed],
  ])('seeks a status-filtered page through the (status, id) index without sorting, on %s', (_, prepare) => {
    prepare();
    for (const status of ['available', 'sold']) {
      const plan = planOf(PET_QUERIES.pageByStatus, status, 0, 21);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH pets USING INDEX pets_status_id \(status=\? AND id>\?\)$/)]);
      expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('seeks an unfiltered page on the id (rowid) without sorting', () => {
    const plan = planOf(PET_QUERIES.page, 0, 21);
    expect(plan).toEqual(['SEARCH pets USING INTEGER PRIMARY KEY (rowid>?)']);
  });
});
