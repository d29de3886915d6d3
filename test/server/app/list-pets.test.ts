import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pet, PetStatus } from '../../../generated/openapi.ts';
import { defined } from '../../support/defined.ts';
import { addPets, cyclingStatuses, expectError, expectJsonContentType } from '../../support/http.ts';
import { nextLink } from '../../support/link-header.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const STATUSES: PetStatus[] = ['available', 'pending', 'sold'];

/** 45 pets, 15 of each status, shared by the tests that only read. */
let t: TestApp;
let all: Pet[];

beforeAll(async () => {
  t = await createTestApp();
  all = await addPets(t, cyclingStatuses(45));
});
afterAll(() => t.close());

async function listPets(app: TestApp, pathAndQuery: string): Promise<{ response: Response; pets: Pet[] }> {
  const response = await app.request(pathAndQuery);
  expect(response.status).toBe(200);
  return { response, pets: (await response.json()) as Pet[] };
}

/** Follows `rel="next"` from `first` to the end; returns every page and every link followed. */
async function walk(app: TestApp, first: string): Promise<{ pages: Pet[][]; links: string[] }> {
  const pages: Pet[][] = [];
  const links: string[] = [];
  let target: string | undefined = first;
  while (target !== undefined) {
    const { response, pets } = await listPets(app, target);
    pages.push(pets);
    target = nextLink(response);
    if (target !== undefined) links.push(target);
    expect(pages.length).toBeLessThan(100);
  }
  return { pages, links };
}

const ids = (pets: Pet[]) => pets.map((pet) => pet.id);

function cursorOf(link: string): string {
  const cursor = new URL(link, 'http://localhost').searchParams.get('cursor');
  expect(cursor).toBeTruthy();
  return defined(cursor, `a cursor in ${link}`);
}

async function firstCursor(query: string): Promise<string> {
  const response = await t.request(`/v1/pets?${query}`);
  expect(response.status).toBe(200);
  const link = nextLink(response);
  return cursorOf(defined(link, 'a next link'));
}

describe('GET /pets', () => {
  it('answers with a plain JSON array of Pet objects', async () => {
    const { response, pets } = await listPets(t, '/v1/pets?limit=3');
    expectJsonContentType(response);
    expect(Array.isArray(pets)).toBe(true);
    expect(pets).toEqual(all.slice(0, 3));
    for (const pet of pets) expect(Object.keys(pet).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });

  it('returns at most 20 pets when limit is omitted', async () => {
    const { pets } = await listPets(t, '/v1/pets');
    expect(ids(pets)).toEqual(ids(all.slice(0, 20)));
  });

  it.each([1, 7, 45])('returns exactly limit=%i pets when at least that many exist', async (limit) => {
    const { pets } = await listPets(t, `/v1/pets?limit=${limit}`);
    expect(ids(pets)).toEqual(ids(all.slice(0, limit)));
  });

  it('returns up to 100 pets with limit=100', async () => {
    const many = await createTestApp();
    const created = await addPets(many, cyclingStatuses(101));
    const { response, pets } = await listPets(many, '/v1/pets?limit=100');
    expect(ids(pets)).toEqual(ids(created.slice(0, 100)));
    expect(nextLink(response)).toBeDefined();
    many.close();
  });

  it('lists pets in ascending id order, which is creation order', async () => {
    const { pets } = await listPets(t, '/v1/pets?limit=100');
    expect(ids(pets)).toEqual(ids(all));
    expect(ids(pets)).toEqual([...ids(pets)].sort((a, b) => a - b));
  });

  it('returns an empty array and no next link when there are no pets', async () => {
    const empty = await createTestApp();
    const { response, pets } = await listPets(empty, '/v1/pets');
    expect(pets).toEqual([]);
    expect(response.headers.get('Link')).toBeNull();
    empty.close();
  });

  it.each([
    ['limit=0'],
    ['limit=101'],
    ['limit=-1'],
    ['limit=1.5'],
    ['limit=abc'],
    ['limit='],
    ['limit=01'],
    ['limit=%2B5'],
    ['limit=1e1'],
    ['limit=%205'],
    ['limit=9007199254740993'],
    ['limit=1&limit=2'],
  ])('rejects %s with 400 validation_failed naming limit', async (query) => {
    await expectError(await t.request(`/v1/pets?${query}`), 400, 'validation_failed', 'limit');
  });

  it.each([
    ['limit=500&status=lost', ['limit', 'status']],
    ['status=lost&limit=500', ['limit', 'status']],
    ['status=lost&limit=1&limit=2', ['limit', 'status']],
    ['limit=abc&status=', ['limit', 'status']],
  ])(
    'rejects %s with one detail per query parameter at fault, in the order the contract declares them',
    async (query, names) => {
      const error = await expectError(await t.request(`/v1/pets?${query}`), 400, 'validation_failed', names[0]);
      expect(error.details?.map((detail) => [detail.in, detail.name])).toEqual(names.map((name) => ['query', name]));
    },
  );

  describe('status filter', () => {
    it.each(STATUSES)('returns every %s pet and only those, in ascending id order', async (status) => {
      const { pets } = await listPets(t, `/v1/pets?limit=100&status=${status}`);
      expect(pets.length).toBeGreaterThan(0);
      for (const pet of pets) expect(pet.status).toBe(status);
      expect(pets).toEqual(all.filter((pet) => pet.status === status));
    });

    it.each([['status=lost'], ['status='], ['status=SOLD'], ['status=available,sold'], ['status=sold&status=pending']])(
      'rejects %s with 400 validation_failed naming status',
      async (query) => {
        await expectError(await t.request(`/v1/pets?${query}`), 400, 'validation_failed', 'status');
      },
    );
  });

  describe('pagination', () => {
    it('reaches every pet exactly once by following rel="next" links to the last page', async () => {
      const { pages, links } = await walk(t, '/v1/pets?limit=10');
      expect(pages.map((page) => page.length)).toEqual([10, 10, 10, 10, 5]);
      expect(ids(pages.flat())).toEqual(ids(all));
      expect(links).toHaveLength(4);
    });

    it('reaches every pet of a status exactly once when filtered', async () => {
      const { pages } = await walk(t, '/v1/pets?limit=4&status=pending');
      expect(pages.map((page) => page.length)).toEqual([4, 4, 4, 3]);
      expect(ids(pages.flat())).toEqual(ids(all.filter((pet) => pet.status === 'pending')));
    });

    it('gives a path-absolute next link that repeats limit and status and adds the cursor', async () => {
      const { links } = await walk(t, '/v1/pets?status=sold&limit=4');
      expect(links).toHaveLength(3);
      for (const link of links) expect(link).toMatch(/^\/v1\/pets\?limit=4&status=sold&cursor=[A-Za-z0-9._~%-]+$/);
    });

    it('repeats the default limit in the next link when the request omitted it', async () => {
      const response = await t.request('/v1/pets');
      expect(nextLink(response)).toMatch(/^\/v1\/pets\?limit=20&cursor=[A-Za-z0-9._~%-]+$/);
      expect(response.headers.get('Link')).toMatch(/^<[^>]+>; rel="next"$/);
    });

    it.each([
      ['all 45 pets fit one page', '/v1/pets?limit=45'],
      ['more than all pets are asked for', '/v1/pets?limit=100'],
      ['the 15 sold pets exactly fill the page', '/v1/pets?limit=15&status=sold'],
    ])('sends no next link when %s', async (_, query) => {
      const { response } = await listPets(t, query);
      expect(nextLink(response)).toBeUndefined();
    });

    it('sends no next link on a last page that is exactly full', async () => {
      const { pages, links } = await walk(t, '/v1/pets?limit=9');
      expect(pages.map((page) => page.length)).toEqual([9, 9, 9, 9, 9]);
      expect(links).toHaveLength(4);
    });
  });

  describe('cursor', () => {
    it.each([
      ['abc'],
      ['a.b'],
      ['a.b.c'],
      ['.'],
      ['..'],
      ['%00'],
      ['eyJhIjoxLCJzIjpudWxsfQ'],
      ['!!!!.!!!!'],
      ['x'.repeat(200)],
    ])('rejects the garbage cursor %s with 400 invalid_cursor', async (cursor) => {
      await expectError(await t.request(`/v1/pets?cursor=${cursor}`), 400, 'invalid_cursor', 'cursor');
    });

    it('rejects a cursor a client built itself', async () => {
      const payload = Buffer.from(JSON.stringify({ a: 5, s: null })).toString('base64url');
      const forged = `${payload}.${randomBytes(16).toString('base64url')}`;
      await expectError(await t.request(`/v1/pets?cursor=${forged}`), 400, 'invalid_cursor', 'cursor');
    });

    it('rejects a cursor signed with another secret', async () => {
      const payload = Buffer.from(JSON.stringify({ a: 5, s: null })).toString('base64url');
      const signature = createHmac('sha256', randomBytes(32))
        .update(payload)
        .digest()
        .subarray(0, 16)
        .toString('base64url');
      await expectError(await t.request(`/v1/pets?cursor=${payload}.${signature}`), 400, 'invalid_cursor', 'cursor');
    });

    it('rejects a cursor issued by another instance of the service', async () => {
      const other = await createTestApp();
      await addPets(other, cyclingStatuses(3));
      const response = await other.request('/v1/pets?limit=1');
      const foreign = cursorOf(defined(nextLink(response), 'a next link'));
      other.close();
      await expectError(await t.request(`/v1/pets?limit=1&cursor=${foreign}`), 400, 'invalid_cursor', 'cursor');
    });

    it('rejects a cursor with any one character changed', async () => {
      const cursor = await firstCursor('limit=2');
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
      const accepted: string[] = [];
      for (let position = 0; position < cursor.length; position++) {
        for (const replacement of alphabet) {
          if (replacement === cursor[position]) continue;
          const tampered = cursor.slice(0, position) + replacement + cursor.slice(position + 1);
          const response = await t.request(`/v1/pets?limit=2&cursor=${tampered}`);
          if (response.status !== 400 || ((await response.json()) as { code: string }).code !== 'invalid_cursor')
            accepted.push(tampered);
        }
      }
      expect(accepted).toEqual([]);
    });

    it.each([
      ['appended', (cursor: string) => `${cursor}A`],
      ['appended padding', (cursor: string) => `${cursor}==`],
      ['appended stray characters', (cursor: string) => `${cursor}!!`],
      ['prepended', (cursor: string) => `A${cursor}`],
      ['inserted in the signature', (cursor: string) => cursor.replace('.', '.!')],
      ['cut short', (cursor: string) => cursor.slice(0, -1)],
    ])('rejects a cursor with characters %s', async (_, tamper) => {
      const cursor = await firstCursor('limit=2');
      await expectError(
        await t.request(`/v1/pets?limit=2&cursor=${encodeURIComponent(tamper(cursor))}`),
        400,
        'invalid_cursor',
        'cursor',
      );
    });

    it.each([
      ['no status filter', 'limit=2', 'limit=2&status=sold'],
      ['status=sold', 'limit=2&status=sold', 'limit=2'],
      ['status=sold', 'limit=2&status=sold', 'limit=2&status=pending'],
    ])('rejects a cursor issued for %s when used with another filter', async (_, issuedFor, usedWith) => {
      const cursor = await firstCursor(issuedFor);
      await expectError(await t.request(`/v1/pets?${usedWith}&cursor=${cursor}`), 400, 'invalid_cursor', 'cursor');
    });
  });
});
