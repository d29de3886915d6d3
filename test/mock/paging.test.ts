// Paging on both mocks, as a frontend pages: with the project's client, and by following each
// page's `Link` itself. Every walk is bounded, so a mock whose pages never end fails the test
// instead of hanging it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnimalStoreClient, findLink, type PagedQuery } from '../../client/index.ts';
import type { Pet } from '../../generated/openapi.ts';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { startStatefulMock } from '../../mock/node/stateful-server.ts';
import { collect } from '../support/collect.ts';
import { AUTHORIZED, examplePets, expectContractError, seededPets } from '../support/mock.ts';

/** The page size `GET /pets` uses when the query sets none (the contract's `limit` default). */
const DEFAULT_LIMIT = 20;

interface MockUnderTest {
  mock: RunningMock;
  /** A key the mock accepts. */
  apiKey: string;
  /** The whole collection the mock serves, in id order. */
  pets: Pet[];
  /** A key with a rate-limit window of its own, or the mock's only key. */
  freshKey(): string;
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const AUTHORIZED_KEY = AUTHORIZED.Authorization.replace(/^Bearer /, '');

const mocks: { name: string; start(): Promise<MockUnderTest> }[] = [
  {
    name: 'the static mock',
    async start() {
      return {
        mock: await startMock(),
        apiKey: AUTHORIZED_KEY,
        pets: examplePets(),
        // The static mock takes any well-formed key, each with its own windows.
        freshKey: () => `ask_${randomBytes(16).toString('base64url')}`,
      };
    },
  },
  {
    name: 'the stateful mock',
    async start() {
      const mock = await startStatefulMock();
      return { mock, apiKey: mock.apiKey, pets: seededPets(mock), freshKey: () => mock.apiKey };
    },
  },
];

describe.each(mocks.map((mock) => [mock.name, mock.start] as const))(
  'Paging that ends, on %s',
  { timeout: 30_000 },
  (_name, start) => {
    let under: MockUnderTest;
    beforeAll(async () => {
      under = await start();
    });
    afterAll(async () => {
      await under?.mock.close();
    });

    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(under.mock.url + path, { headers: { ...bearer(under.apiKey), ...headers } });
    const petsWith = (status: Pet['status'] | undefined) =>
      under.pets.filter((pet) => status === undefined || pet.status === status);

    describe('listAllPets of the client', () => {
      it.each<{ query: PagedQuery<'/pets'> }>([
        { query: {} },
        { query: { limit: 2 } },
        { query: { limit: 1 } },
        { query: { status: 'available' } },
        { query: { limit: 1, status: 'available' } },
        { query: { limit: 2, status: 'sold' } },
      ])('with $query ends, yielding each pet of the collection once, in id order', async ({ query }) => {
        let pages = 0;
        const client = createAnimalStoreClient({
          baseUrl: `${under.mock.url}/v1`,
          apiKey: under.apiKey,
          fetch: (request) => {
            pages += 1;
            return fetch(request);
          },
        });
        const expected = petsWith(query.status);

        const listed = await collect(client.listAllPets(query), expected.length + 5);

        expect(listed).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / (query.limit ?? DEFAULT_LIMIT))));
      });
    });

    describe('GET /v1/pets', () => {
      it('returns exactly one pet for ?limit=1, and a Link to the next page', async () => {
        const response = await get('/v1/pets?limit=1');

        expect(await response.json()).toEqual([under.pets[0]]);
        expect(findLink(response.headers.get('Link'), 'next')).toBeDefined();
      });

      it.each(['available', 'pending', 'sold'] as const)(
        'answers ?status=%s with only those pets, all of them',
        async (status) => {
          const response = await get(`/v1/pets?status=${status}&limit=100`);

          expect(petsWith(status).length).toBeGreaterThan(0);
          expect(await response.json()).toEqual(petsWith(status));
        },
      );

      it.each([
        ['limit=1', '1', null],
        ['limit=2', '2', null],
        ['limit=1&status=available', '1', 'available'],
        ['status=sold&limit=1', '1', 'sold'],
      ])(
        'links every page of ?%s to the next with the same limit and status, and the last page to none',
        async (query, limit, status) => {
          const expected = petsWith((status ?? undefined) as Pet['status'] | undefined);
          const listed: Pet[] = [];
          let next: string | undefined = `/v1/pets?${query}`;
          for (let page = 0; next !== undefined; page += 1) {
            if (page > expected.length) throw new Error(`Still linking to a next page after ${page} pages: ${next}`);
            const response = await get(next);
            expect(response.status).toBe(200);
            listed.push(...((await response.json()) as Pet[]));
            next = findLink(response.headers.get('Link'), 'next');
            if (next === undefined) {
              expect(response.headers.get('Link'), 'the last page').toBeNull();
              continue;
            }
            const linked = new URL(next, under.mock.url);
            expect(linked.origin).toBe(under.mock.url);
            expect(linked.searchParams.get('limit'), next).toBe(limit);
            expect(linked.searchParams.get('status'), next).toBe(status);
          }

          expect(listed).toEqual(expected);
        },
      );

      it('answers Prefer: example=PetsEmpty with [] and no Link, although the collection has more', async () => {
        const response = await get('/v1/pets?limit=1', { Prefer: 'example=PetsEmpty' });

        expect(response.status).toBe(200);
        expect(await response.json()).toEqual([]);
        expect(response.headers.get('Link')).toBeNull();
      });
    });

    describe('GET /v1/pets/{petId}', () => {
      it('answers every id of the collection with the pet the list shows', async () => {
        const listed = (await (await get('/v1/pets?limit=100')).json()) as Pet[];

        expect(listed).toEqual(under.pets);
        for (const pet of listed) expect(await (await get(`/v1/pets/${pet.id}`)).json()).toEqual(pet);
      });

      it('answers an id the collection lacks with 404 not_found naming the id', async () => {
        const missing = 3;
        expect(under.pets.map((pet) => pet.id)).not.toContain(missing);

        const { message } = await expectContractError(await get(`/v1/pets/${missing}`), 404, 'not_found');

        expect(message).toMatch(new RegExp(`\\b${missing}\\b`));
      });
    });

    describe('rate-limit headers', () => {
      it('describe a window running now: X-RateLimit-Reset is in the future and at most 60 s away', async () => {
        const response = await get('/v1/pets');
        const reset = Number(response.headers.get('X-RateLimit-Reset'));

        expect(reset).toBeGreaterThan(Date.now() / 1000);
        // The service rounds the window's end up to the second.
        expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
      });

      it('count X-RateLimit-Remaining down by one per request of the same key', async () => {
        const key = under.freshKey();
        const answers = [];
        for (let sent = 0; sent < 5; sent += 1) answers.push(await get('/v1/pets', bearer(key)));
        const remaining = answers.map((response) => Number(response.headers.get('X-RateLimit-Remaining')));
        const limit = Number(answers[0]?.headers.get('X-RateLimit-Limit'));

        expect(remaining[0]).toBeLessThan(limit);
        expect(remaining).toEqual(remaining.map((_, index) => (remaining[0] ?? 0) - index));
        expect(new Set(answers.map((response) => response.headers.get('X-RateLimit-Reset'))).size).toBe(1);
      });
    });
  },
);
