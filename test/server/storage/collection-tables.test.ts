// The tables follow the contract: a collection or a field the contract gains needs no hand-written
// migration, on SQLite and on PostgreSQL, and a change the data cannot follow stops the start, named.
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { Contract } from '../../../contract/contract.ts';
import type { OpenApiDocument } from '../../../contract/document.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import { sqliteCollectionStores } from '../../../server/storage/sqlite/collections.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { createTestDatabase, postgresReachable } from '../../../support/backing-services.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Document = OpenApiDocument & { components: { schemas: Record<string, Record<string, unknown>> } };

/** The contract with `edit` applied to a copy of its document. */
function contractWith(edit: (document: Document) => void): Contract {
  const document = structuredClone(loadContract().document) as Document;
  edit(document);
  return new Contract(document);
}

/** A new collection, `/widgets`: a list filtered by `colour` and a create, on the API's conventions. */
function withWidgets(document: Document): void {
  const widget = { $ref: '#/components/schemas/Widget' };
  document.components.schemas.Widget = {
    type: 'object',
    required: ['id', 'label', 'colour'],
    properties: {
      id: { type: 'integer', minimum: 1 },
      label: { type: 'string' },
      colour: { type: 'string', enum: ['red', 'blue'] },
      weight: { type: 'number' },
      fragile: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  };
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  document.paths['/widgets'] = {
    get: {
      operationId: 'listWidgets',
      parameters: [{ name: 'colour', in: 'query', schema: { type: 'string' } }],
      responses: { '200': { description: 'Widgets.', ...json({ type: 'array', items: widget }) } },
    },
    post: {
      operationId: 'createWidget',
      requestBody: json({ type: 'object' }),
      responses: { '201': { description: 'The widget.', ...json(widget) } },
    },
  };
}

/** Pet with one more property, `nickname` unless named; `required` makes it required. */
function withPetField(property: Record<string, unknown>, required = false, name = 'nickname') {
  return (document: Document) => {
    const pet = document.components.schemas.Pet as { properties: Record<string, unknown>; required: string[] };
    pet.properties[name] = property;
    if (required) pet.required.push(name);
  };
}

const widget = { label: 'Gear', colour: 'red', weight: 1.5, fragile: true, tags: ['metal', 'small'] };
const pet = { name: 'Rex', categoryId: 1, status: 'available' };

describe('SQLite tables of the collections', () => {
  const openAt = (path: string, contract: Contract) => {
    const db = openDatabase(path, contract);
    cleanups.push(() => void db.close());
    return { db, stores: sqliteCollectionStores(db, contract) };
  };

  it('stores a collection the contract gains, every kind of field, and pages it by its filter', async () => {
    const contract = contractWith(withWidgets);
    const { stores } = openAt(`${tempDir()}/store.db`, contract);
    const created = await stores('widgets').create(widget);
    await stores('widgets').create({ ...widget, colour: 'blue', weight: undefined, tags: undefined });
    expect(created).toEqual({ id: 1, ...widget });
    expect(await stores('widgets').get(1)).toEqual(created);
    expect(await stores('widgets').list({ limit: 10, filters: { colour: 'blue' } })).toEqual({
      items: [{ id: 2, label: 'Gear', colour: 'blue', fragile: true }],
      hasMore: false,
      position: 2,
    });
  });

  it('adds a field the contract gains to a table that has rows: old rows without it, a default where given', async () => {
    const path = `${tempDir()}/store.db`;
    const before = openAt(path, loadContract());
    await before.stores('pets').create(pet);
    before.db.close();

    const optional = openAt(path, contractWith(withPetField({ type: 'string' })));
    expect(await optional.stores('pets').get(1)).toEqual({ id: 1, ...pet });
    expect(await optional.stores('pets').create({ ...pet, nickname: 'Rexy' })).toEqual({
      id: 2,
      ...pet,
      nickname: 'Rexy',
    });
    optional.db.close();

    const defaulted = openAt(path, contractWith(withPetField({ type: 'integer', default: 4 }, true, 'legs')));
    expect(await defaulted.stores('pets').get(1)).toEqual({ id: 1, ...pet, legs: 4 });
  });

  it('refuses to start, naming the field, when the contract makes a new field required without a default and rows exist', async () => {
    const path = `${tempDir()}/store.db`;
    const before = openAt(path, loadContract());
    await before.stores('pets').create(pet);
    before.db.close();
    expect(() => openDatabase(path, contractWith(withPetField({ type: 'string' }, true)))).toThrow(
      /pet\.nickname required, but the 1 stored pets have no value for it; give it a default/,
    );
  });

  it("refuses to start, naming the column, when the contract changes a stored field's type", () => {
    const path = `${tempDir()}/store.db`;
    openDatabase(path).close();
    const changed = contractWith((document) => {
      (document.components.schemas.Pet as { properties: Record<string, unknown> }).properties.categoryId = {
        type: 'string',
      };
    });
    expect(() => openDatabase(path, changed)).toThrow(
      /pets\.category_id holds INTEGER, but the contract now makes categoryId a string/,
    );
  });
});

describe.skipIf(!(await postgresReachable()))('PostgreSQL tables of the collections', () => {
  async function openAt(url: string, contract: Contract) {
    const storage = await openPostgresStorage(url, { contract });
    cleanups.push(() => storage.close());
    return storage;
  }

  it('stores a collection the contract gains, every kind of field, and pages it by its filter', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const { collections } = await openAt(database.url, contractWith(withWidgets));
    const created = await collections('widgets').create(widget);
    await collections('widgets').create({ ...widget, colour: 'blue', weight: undefined, tags: undefined });
    expect(created).toEqual({ id: 1, ...widget });
    expect(await collections('widgets').get(1)).toEqual(created);
    expect(await collections('widgets').list({ limit: 10, filters: { colour: 'blue' } })).toEqual({
      items: [{ id: 2, label: 'Gear', colour: 'blue', fragile: true }],
      hasMore: false,
      position: 2,
    });
  });

  it('adds a field the contract gains to a table that has rows, and refuses a required one without a default, naming it', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const before = await openAt(database.url, loadContract());
    await before.collections('pets').create(pet);
    await expect(
      openPostgresStorage(database.url, { contract: contractWith(withPetField({ type: 'string' }, true)) }),
    ).rejects.toThrow(/pet\.nickname required, but the 1 stored pets have no value for it/);
    const optional = await openAt(database.url, contractWith(withPetField({ type: 'string' })));
    expect(await optional.collections('pets').get(1)).toEqual({ id: 1, ...pet });
    expect(await optional.collections('pets').create({ ...pet, nickname: 'Rexy' })).toEqual({
      id: 2,
      ...pet,
      nickname: 'Rexy',
    });
  });
});
