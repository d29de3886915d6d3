// A collection store's behaviour, the same on SQLite and PostgreSQL, shown on the pets. What only
// SQLite shows (its query plans, its read cache) is in sqlite-collections.test.ts; every collection
// of the contract is stored and read back in contract-collections.test.ts.
import { describe, expect, it } from 'vitest';
import type { CollectionStore } from '../../../core/collections/store.ts';
import type { Pet, PetStatus } from '../../../generated/openapi.ts';
import { postgresReachable } from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { type StorageEngine, useEmptyDatabase } from '../../support/storage-engines.ts';

describe('the pets collection store on SQLite', () => petStoreBehaviour('SQLite'));
describe.skipIf(!(await postgresReachable()))('the pets collection store on PostgreSQL', () =>
  petStoreBehaviour('PostgreSQL'),
);

function petStoreBehaviour(engine: StorageEngine): void {
  const database = useEmptyDatabase(engine);
  const store = () => database.storage().collections('pets') as CollectionStore<Pet>;

  async function createPets(statuses: readonly PetStatus[]): Promise<Pet[]> {
    const pets: Pet[] = [];
    for (const [index, status] of statuses.entries()) {
      pets.push(await store().create({ name: `Pet ${index + 1}`, categoryId: 1, status }));
    }
    return pets;
  }

  describe('create', () => {
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
      await database.query('DELETE FROM pets WHERE id IN (2, 3)');
      const next = await store().create({ name: 'Next', categoryId: 1, status: 'available' });
      expect(next.id).toBe(4);
    });

    it.each([
      ['spaces around and inside', '  Rex   the  dog  '],
      ['accents and other scripts', 'Élodie – Кот – 猫'],
      ['emoji, including joined sequences', '🐕 Rex 👩‍👩‍👧 🏳️‍🌈'],
      ['combining characters left uncomposed', 'e\u0301le\u0300ve'],
      ['tabs and non-breaking spaces inside', 'Rex\u00a0\u2003Jr'],
    ])('stores a name with %s exactly as given', async (_, name) => {
      const created = await store().create({ name, categoryId: 7, status: 'available' });
      expect(created.name).toBe(name);
      expect((await store().get(created.id))?.name).toBe(name);
    });

    it('round-trips the largest categoryId a JSON client can hold, 2^53-1, as a number', async () => {
      const created = await store().create({ name: 'Big', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' });
      expect(created.categoryId).toBe(9007199254740991);
      expect((await store().get(created.id))?.categoryId).toBe(9007199254740991);
    });

    it('refuses a name with a lone surrogate, which UTF-8 cannot hold, and stores nothing', async () => {
      await expect(store().create({ name: 'Rex\ud800', categoryId: 1, status: 'available' })).rejects.toThrow(
        RangeError,
      );
      expect((await store().list({ limit: 10 })).items).toEqual([]);
    });

    it('keeps created pets after the storage is closed and opened again', async () => {
      const created = await store().create({ name: 'Rex', categoryId: 3, status: 'pending' });
      const reopened = await database.reopen();
      expect(await reopened.collections('pets').get(created.id)).toEqual(created);
    });
  });

  describe('get', () => {
    it('returns the pet with that id, or undefined when there is none', async () => {
      const [, second] = await createPets(['available', 'sold']);
      expect(await store().get(2)).toEqual(second);
      expect(await store().get(3)).toBeUndefined();
    });

    it('finds nothing, without failing, for the largest id a client can send', async () => {
      await createPets(['available']);
      expect(await store().get(Number.MAX_SAFE_INTEGER)).toBeUndefined();
    });
  });

  describe('list', () => {
    const statuses: PetStatus[] = ['available', 'sold', 'available', 'pending', 'sold', 'available', 'sold'];

    it('returns pets in ascending id order, at most limit of them, and says whether more exist', async () => {
      await createPets(statuses);
      const page = await store().list({ limit: 3 });
      expect(page.items.map((pet) => pet.id)).toEqual([1, 2, 3]);
      expect(page.hasMore).toBe(true);
    });

    it('continues after afterId and reports no more on the last page', async () => {
      await createPets(statuses);
      const page = await store().list({ limit: 4, after: 3 });
      expect(page.items.map((pet) => pet.id)).toEqual([4, 5, 6, 7]);
      expect(page.hasMore).toBe(false);
    });

    it('reports no more when the page is exactly full with the last pets', async () => {
      await createPets(statuses);
      expect((await store().list({ limit: 7 })).hasMore).toBe(false);
    });

    it('keeps only pets of the given status, still in id order and paged', async () => {
      await createPets(statuses);
      const first = await store().list({ limit: 2, filters: { status: 'sold' } });
      expect(first.items.map((pet) => [pet.id, pet.status])).toEqual([
        [2, 'sold'],
        [5, 'sold'],
      ]);
      expect(first.hasMore).toBe(true);

      const second = await store().list({ limit: 2, filters: { status: 'sold' }, after: 5 });
      expect(second.items.map((pet) => pet.id)).toEqual([7]);
      expect(second.hasMore).toBe(false);
    });

    it("walks every pet exactly once when following each page's position", async () => {
      const created = await createPets(statuses);
      const seen: Pet[] = [];
      let after: number | undefined;
      for (;;) {
        const page = await store().list({ limit: 2, after });
        seen.push(...page.items);
        if (!page.hasMore) break;
        after = defined(page.position, 'the position of a page with more after it');
      }
      expect(seen).toEqual(created);
    });

    it('returns an empty last page when nothing matches', async () => {
      await createPets(['available']);
      expect(await store().list({ limit: 20, filters: { status: 'pending' } })).toEqual({ items: [], hasMore: false });
    });
  });

  describe('update', () => {
    it('stores the fields the change makes of the stored pet and returns the pet as stored', async () => {
      const [pet] = await createPets(['available']);
      // Read first, so that a read cache holds the pet as it was.
      expect(await store().get(1)).toEqual(pet);
      expect((await store().list({ limit: 10, filters: { status: 'sold' } })).items).toEqual([]);
      const seen: Pet[] = [];
      const updated = await store().update(defined(pet, 'the pet').id, (current) => {
        seen.push(current);
        return { ...current, id: undefined, status: 'sold' };
      });
      expect(seen).toEqual([pet]);
      expect(updated).toEqual({ ...pet, status: 'sold' });
      expect(await store().get(1)).toEqual(updated);
      expect((await store().list({ limit: 10, filters: { status: 'sold' } })).items).toEqual([updated]);
    });

    it('returns undefined for an id no pet has, without asking for a change', async () => {
      await createPets(['available']);
      let asked = false;
      const updated = await store().update(99, (current) => {
        asked = true;
        return current;
      });
      expect(updated).toBeUndefined();
      expect(asked).toBe(false);
    });

    it('changes nothing when the change refuses', async () => {
      const [pet] = await createPets(['sold']);
      await expect(
        store().update(1, () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await store().get(1)).toEqual(pet);
    });

    it('makes two changes of one pet at once one after the other, the second seeing the first', async () => {
      await createPets(['available']);
      const other = (await database.openAnother()).collections('pets') as CollectionStore<Pet>;
      const renamed = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 === 0 ? store() : other).update(1, (current) => ({ ...current, name: `${current.name}+` })),
        ),
      );
      expect(renamed.map((pet) => pet?.name.length).sort((a = 0, b = 0) => a - b)).toEqual(
        Array.from({ length: 10 }, (_, index) => 'Pet 1'.length + index + 1),
      );
      expect((await store().get(1))?.name).toBe(`Pet 1${'+'.repeat(10)}`);
    });
  });

  describe('delete', () => {
    it('removes the pet once its check passed, returning it as it was, from get and every list', async () => {
      const [first, second] = await createPets(['available', 'available']);
      // Read first, so that a read cache holds the pet as it was.
      expect((await store().list({ limit: 10 })).items).toEqual([first, second]);
      const seen: Pet[] = [];
      const removed = await store().delete(1, (current) => {
        seen.push(current);
      });
      expect(seen).toEqual([first]);
      expect(removed).toEqual(first);
      expect(await store().get(1)).toBeUndefined();
      expect((await store().list({ limit: 10 })).items).toEqual([second]);
      expect((await store().list({ limit: 10, filters: { status: 'available' } })).items).toEqual([second]);
    });

    it('returns undefined for an id no pet has, without asking the check', async () => {
      let asked = false;
      const check = () => {
        asked = true;
      };
      expect(await store().delete(99, check)).toBeUndefined();
      expect(asked).toBe(false);
    });

    it('removes nothing when the check refuses', async () => {
      const [pet] = await createPets(['sold']);
      await expect(
        store().delete(1, () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await store().get(1)).toEqual(pet);
    });

    it('removes a pet once when two instances remove it at once', async () => {
      await createPets(['available']);
      const other = (await database.openAnother()).collections('pets') as CollectionStore<Pet>;
      const removed = await Promise.all([store(), other, store(), other].map((each) => each.delete(1, () => {})));
      expect(removed.filter((pet) => pet !== undefined)).toHaveLength(1);
    });
  });

  describe('events', () => {
    it('records a removal as pet.deleted in the outbox, with the pet as it was, and nothing for a refused one', async () => {
      const storage = database.storage();
      const { record } = await storage.keys.create({ plan: 'free' });
      await storage.collections('webhook_endpoints').create({
        url: 'https://hooks.example.com/pets',
        events: ['pet.deleted'],
        secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
        createdAt: new Date().toISOString(),
        keyLine: record.lineage,
      });
      const [pet] = await createPets(['available', 'available']);
      await expect(
        store().delete(2, () => {
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      await store().delete(1, () => {});
      const rows = (await database.query('SELECT type, body FROM webhook_deliveries')) as Array<{
        type: string;
        body: string;
      }>;
      expect(rows.map(({ type, body }) => ({ type, event: JSON.parse(body) }))).toEqual([
        { type: 'pet.deleted', event: { type: 'pet.deleted', timestamp: expect.any(String), data: pet } },
      ]);
    });
  });

  describe('references (an order names its pet)', () => {
    const orders = () => database.storage().collections('store_orders');

    it('stores an order naming a pet, and refuses one naming none with validation_failed naming petId, storing nothing', async () => {
      await createPets(['available']);
      expect(await orders().create({ petId: 1, quantity: 1, status: 'placed' })).toMatchObject({ id: 1, petId: 1 });
      await expect(orders().create({ petId: 2, quantity: 1, status: 'placed' })).rejects.toMatchObject({
        status: 400,
        code: 'validation_failed',
        details: [{ in: 'body', name: 'petId' }],
      });
      expect((await orders().list({ limit: 10 })).items).toHaveLength(1);
    });

    it('refuses only the create naming no pet among the creates committed with it', async () => {
      await createPets(['available']);
      const outcomes = await Promise.allSettled(
        [1, 2, 1].map((petId) => orders().create({ petId, quantity: 1, status: 'placed' })),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((await orders().list({ limit: 10 })).items.map((order) => order.petId)).toEqual([1, 1]);
    });

    it('never lets an order naming a pet and that pet’s removal both succeed, across instances', async () => {
      const other = (await database.openAnother()).collections('store_orders');
      for (let round = 0; round < 5; round++) {
        const [pet] = await createPets(['available']);
        const id = defined(pet, 'the pet').id;
        const [order, removed] = await Promise.allSettled([
          (round % 2 === 0 ? other : orders()).create({ petId: id, quantity: 1, status: 'placed' }),
          store().delete(id, () => {}),
        ]);
        expect(removed).toMatchObject({ status: 'fulfilled', value: pet });
        // Either the order came first (its pet then removed, the order kept) or it was refused.
        if (order.status === 'fulfilled') expect(await orders().get(order.value.id)).toEqual(order.value);
        else expect(order.reason).toMatchObject({ code: 'validation_failed' });
        const placedAfter = orders().create({ petId: id, quantity: 1, status: 'placed' });
        await expect(placedAfter).rejects.toMatchObject({ code: 'validation_failed' });
      }
    });
  });

  describe('reads after writes', () => {
    it('lists and gets a pet this store created right after reading the same page', async () => {
      await createPets(['available']);
      expect((await store().list({ limit: 10 })).items).toHaveLength(1);
      const created = await store().create({ name: 'Newcomer', categoryId: 2, status: 'available' });
      expect((await store().list({ limit: 10 })).items.at(-1)).toEqual(created);
      expect(await store().get(created.id)).toEqual(created);
    });

    it('sees at once what another instance on the same database committed', async () => {
      const reader = store();
      const writer = (await database.openAnother()).collections('pets') as CollectionStore<Pet>;
      const first = await writer.create({ name: 'First', categoryId: 1, status: 'available' });
      expect(await reader.list({ limit: 10 })).toEqual({ items: [first], hasMore: false, position: first.id });
      expect(await reader.get(first.id)).toEqual(first);

      const second = await writer.create({ name: 'Second', categoryId: 1, status: 'available' });
      await database.query(`UPDATE pets SET status = 'sold' WHERE id = ${first.id}`);
      expect(await reader.list({ limit: 10 })).toEqual({
        items: [{ ...first, status: 'sold' }, second],
        hasMore: false,
        position: second.id,
      });
      expect(await reader.get(first.id)).toEqual({ ...first, status: 'sold' });
    });

    it('gives every pet created at once by two instances its own id', async () => {
      const other = (await database.openAnother()).collections('pets') as CollectionStore<Pet>;
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? store() : other).create({ name: `Pet ${index}`, categoryId: 1, status: 'available' }),
        ),
      );
      const ids = created.map((pet) => pet.id).sort((a, b) => a - b);
      expect(ids).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
      expect((await store().list({ limit: 100 })).items).toHaveLength(20);
    });
  });
}
