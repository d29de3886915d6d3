import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/database.ts';
import { openDatabase } from '../../../server/database.ts';
import type { Pet, PetStatus } from '../../../server/store/pet-store.ts';
import { PET_QUERIES, SqlitePetStore } from '../../../server/store/sqlite-pet-store.ts';
import { defined } from '../../support/defined.ts';
import { useTempDirs } from './temp-dir.ts';

const tempDir = useTempDirs();
let db: Database;
let store: SqlitePetStore;

beforeEach(() => {
  db = openDatabase(':memory:');
  store = new SqlitePetStore(db);
});
afterEach(() => db.close());

async function createPets(statuses: readonly PetStatus[]): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (const [index, status] of statuses.entries()) {
    pets.push(await store.create({ name: `Pet ${index + 1}`, categoryId: 1, status }));
  }
  return pets;
}

describe('SqlitePetStore.create', () => {
  it('assigns ids 1, 2, 3 in creation order and returns the stored pet', async () => {
    const created = await createPets(['available', 'sold', 'pending']);
    expect(created).toEqual([
      { id: 1, name: 'Pet 1', categoryId: 1, status: 'available' },
      { id: 2, name: 'Pet 2', categoryId: 1, status: 'sold' },
      { id: 3, name: 'Pet 3', categoryId: 1, status: 'pending' },
    ]);
  });

  it('never reuses the id of a deleted pet, not even the last one', async () => {
    await createPets(['available', 'available', 'available']);
    db.prepare('DELETE FROM pets WHERE id IN (2, 3)').run();
    const next = await store.create({ name: 'Next', categoryId: 1, status: 'available' });
    expect(next.id).toBe(4);
  });

  it.each([
    ['spaces around and inside', '  Rex   the  dog  '],
    ['accents and other scripts', 'Élodie – Кот – 猫'],
    ['emoji, including joined sequences', '🐕 Rex 👩‍👩‍👧 🏳️‍🌈'],
    ['combining characters left uncomposed', 'e\u0301le\u0300ve'],
    ['tabs and non-breaking spaces inside', 'Rex\u00a0\u2003Jr'],
  ])('stores a name with %s exactly as given', async (_, name) => {
    const created = await store.create({ name, categoryId: 7, status: 'available' });
    expect(created.name).toBe(name);
    expect((await store.get(created.id))?.name).toBe(name);
  });

  it('round-trips the largest categoryId a JSON client can hold, 2^53-1', async () => {
    const created = await store.create({ name: 'Big', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' });
    expect((await store.get(created.id))?.categoryId).toBe(9007199254740991);
  });

  it('refuses a name with a lone surrogate, which SQLite would alter, and stores nothing', async () => {
    await expect(store.create({ name: 'Rex\ud800', categoryId: 1, status: 'available' })).rejects.toThrow(RangeError);
    expect((await store.list({ limit: 10 })).pets).toEqual([]);
  });

  it('keeps created pets after the database is closed and reopened', async () => {
    const path = join(tempDir(), 'store.db');
    const fileDb = openDatabase(path);
    const created = await new SqlitePetStore(fileDb).create({ name: 'Rex', categoryId: 3, status: 'pending' });
    fileDb.close();

    const reopened = openDatabase(path);
    expect(await new SqlitePetStore(reopened).get(created.id)).toEqual(created);
    reopened.close();
  });
});

describe('SqlitePetStore.get', () => {
  it('returns the pet with that id, or undefined when there is none', async () => {
    const [, second] = await createPets(['available', 'sold']);
    expect(await store.get(2)).toEqual(second);
    expect(await store.get(3)).toBeUndefined();
  });
});

describe('SqlitePetStore.list', () => {
  const statuses: PetStatus[] = ['available', 'sold', 'available', 'pending', 'sold', 'available', 'sold'];

  it('returns pets in ascending id order, at most limit of them, and says whether more exist', async () => {
    await createPets(statuses);
    const page = await store.list({ limit: 3 });
    expect(page.pets.map((pet) => pet.id)).toEqual([1, 2, 3]);
    expect(page.hasMore).toBe(true);
  });

  it('continues after afterId and reports no more on the last page', async () => {
    await createPets(statuses);
    const page = await store.list({ limit: 4, afterId: 3 });
    expect(page.pets.map((pet) => pet.id)).toEqual([4, 5, 6, 7]);
    expect(page.hasMore).toBe(false);
  });

  it('reports no more when the page is exactly full with the last pets', async () => {
    await createPets(statuses);
    expect((await store.list({ limit: 7 })).hasMore).toBe(false);
  });

  it('keeps only pets of the given status, still in id order and paged', async () => {
    await createPets(statuses);
    const first = await store.list({ limit: 2, status: 'sold' });
    expect(first.pets.map((pet) => [pet.id, pet.status])).toEqual([
      [2, 'sold'],
      [5, 'sold'],
    ]);
    expect(first.hasMore).toBe(true);

    const second = await store.list({ limit: 2, status: 'sold', afterId: 5 });
    expect(second.pets.map((pet) => pet.id)).toEqual([7]);
    expect(second.hasMore).toBe(false);
  });

  it('walks every pet exactly once when following afterId page by page', async () => {
    const created = await createPets(statuses);
    const seen: Pet[] = [];
    let afterId: number | undefined;
    for (;;) {
      const page = await store.list({ limit: 2, afterId });
      seen.push(...page.pets);
      if (!page.hasMore) break;
      afterId = defined(page.pets.at(-1), 'a pet on a page with more after it').id;
    }
    expect(seen).toEqual(created);
  });

  it('returns an empty last page when nothing matches', async () => {
    await createPets(['available']);
    expect(await store.list({ limit: 20, status: 'pending' })).toEqual({ pets: [], hasMore: false });
  });
});

describe('SqlitePetStore reads after writes', () => {
  it('lists and gets a pet this store created right after reading the same page', async () => {
    await createPets(['available']);
    expect((await store.list({ limit: 10 })).pets).toHaveLength(1);
    const created = await store.create({ name: 'Newcomer', categoryId: 2, status: 'available' });
    expect((await store.list({ limit: 10 })).pets.at(-1)).toEqual(created);
    expect(await store.get(created.id)).toEqual(created);
  });

  it('sees at once what another connection (a second server process) committed', async () => {
    const path = join(tempDir(), 'pets.db');
    const mine = openDatabase(path);
    const theirs = openDatabase(path);
    try {
      const reader = new SqlitePetStore(mine);
      const writer = new SqlitePetStore(theirs);
      const first = await writer.create({ name: 'First', categoryId: 1, status: 'available' });
      expect(await reader.list({ limit: 10 })).toEqual({ pets: [first], hasMore: false });
      expect(await reader.get(first.id)).toEqual(first);

      const second = await writer.create({ name: 'Second', categoryId: 1, status: 'available' });
      theirs.prepare("UPDATE pets SET status = 'sold' WHERE id = ?").run(first.id);
      expect(await reader.list({ limit: 10 })).toEqual({
        pets: [{ ...first, status: 'sold' }, second],
        hasMore: false,
      });
      expect(await reader.get(first.id)).toEqual({ ...first, status: 'sold' });
    } finally {
      theirs.close();
      mine.close();
    }
  });

  it('hands out pets no caller can alter for the next reader', async () => {
    const pet = defined((await createPets(['available']))[0], 'the created pet');
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
