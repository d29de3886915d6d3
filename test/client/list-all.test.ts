import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnimalStoreError, createAnimalStoreClient, type Order, type Pet } from '../../client/index.ts';
import { addPets, type ClientOfTestApp, clientOfTestApp, jsonResponse, pet, scriptedFetch } from '../support/client.ts';
import { collect } from '../support/collect.ts';

/** 55 pets, statuses cycling available, pending, sold: more than five pages of 10. */
let t: ClientOfTestApp;
let all: Pet[];

beforeAll(async () => {
  t = await clientOfTestApp();
  all = await addPets(t, 55);
});
afterAll(() => t.app.close());

const ids = (pets: Pet[]) => pets.map((pet) => pet.id);

function listRequestsSince(start: number): string[] {
  return t.sent.slice(start).map((request) => `${request.method} ${new URL(request.url).pathname}`);
}

describe('listAll against the real server', () => {
  it('pages through any list the contract pages with Link: the orders, filtered by status', async () => {
    const orders: Order[] = [];
    for (let index = 0; index < 7; index++) {
      const { data, response } = await t.client.POST('/store/orders', {
        body: { petId: 1 + (index % 3), quantity: 1 + index },
      });
      expect(response.status).toBe(201);
      orders.push(data as Order);
    }
    const start = t.sent.length;

    const listed = await collect(t.client.listAll('/store/orders', { status: 'placed', limit: 3 }));

    expect(listed).toEqual(orders);
    expect(listRequestsSince(start)).toEqual(Array(3).fill('GET /v1/store/orders'));
  });

  it('is what listAllPets does for /pets', async () => {
    expect(await collect(t.client.listAll('/pets', { limit: 25 }))).toEqual(await collect(t.client.listAllPets()));
  });
});

describe('listAllPets against the real server', () => {
  it('yields every pet once, in ascending id order, following six pages of 10', async () => {
    const start = t.sent.length;

    const pets = await collect(t.client.listAllPets({ limit: 10 }));

    expect(pets).toEqual(all);
    expect(ids(pets)).toEqual(Array.from({ length: 55 }, (_, index) => index + 1));
    expect(listRequestsSince(start)).toEqual(Array(6).fill('GET /v1/pets'));
  });

  it.each(['available', 'pending', 'sold'] as const)('yields exactly the %s pets across pages', async (status) => {
    const expected = all.filter((candidate) => candidate.status === status);
    const start = t.sent.length;

    const pets = await collect(t.client.listAllPets({ status, limit: 4 }));

    expect(pets).toEqual(expected);
    expect(t.sent.length - start).toBe(Math.ceil(expected.length / 4));
    expect(new Set(t.sent.slice(start).map((request) => new URL(request.url).searchParams.get('status')))).toEqual(
      new Set([status]),
    );
  });

  it('uses the service default page size when no limit is given', async () => {
    const start = t.sent.length;

    const pets = await collect(t.client.listAllPets());

    expect(ids(pets)).toEqual(ids(all));
    expect(t.sent.length - start).toBe(3);
  });

  it('sends the bearer key on every page', async () => {
    const start = t.sent.length;

    await collect(t.client.listAllPets({ limit: 20 }));

    expect(t.sent.slice(start).map((request) => request.headers.get('Authorization'))).toEqual(
      Array(3).fill(`Bearer ${t.app.apiKey}`),
    );
  });

  it('sends nothing more when the caller stops early', async () => {
    const start = t.sent.length;
    const firstTwelve: Pet[] = [];

    for await (const pet of t.client.listAllPets({ limit: 10 })) {
      firstTwelve.push(pet);
      if (firstTwelve.length === 12) break;
    }

    expect(firstTwelve).toEqual(all.slice(0, 12));
    expect(t.sent.length - start).toBe(2);
  });

  it('throws an AnimalStoreError carrying the Error body on a non-2xx page', async () => {
    const error = await collect(t.client.listAllPets({ limit: 0 })).catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(AnimalStoreError);
    expect(error).toMatchObject({
      operation: 'GET /pets',
      status: 400,
      body: { code: 'validation_failed', status: 400 },
    });
    expect((error as AnimalStoreError).message).toMatch(/^GET \/pets answered 400 validation_failed: .*limit/);
  });

  it('stops sending once its signal fires between pages', async () => {
    const controller = new AbortController();
    const start = t.sent.length;
    const seen: Pet[] = [];

    const outcome = (async () => {
      for await (const pet of t.client.listAllPets({ limit: 10 }, { signal: controller.signal })) {
        seen.push(pet);
        if (seen.length === 10) controller.abort();
      }
    })();

    await expect(outcome).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(10);
    expect(t.sent.length - start).toBe(1);
  });
});

describe('listAllPets following links', () => {
  const page = (pets: Pet[], link?: string) => jsonResponse(pets, 200, link ? { Link: link } : {});
  const second = { ...pet, id: 2 };

  it.each([
    {
      baseUrl: 'http://api.test/v1',
      link: '</v1/pets?limit=1&cursor=abc>; rel="next"',
      expected: 'http://api.test/v1/pets?limit=1&cursor=abc',
    },
    {
      baseUrl: 'https://gateway.test/animal-store/v1/',
      link: '</animal-store/v1/pets?limit=1&cursor=abc>; rel="next"',
      expected: 'https://gateway.test/animal-store/v1/pets?limit=1&cursor=abc',
    },
    {
      baseUrl: 'http://api.test/v1',
      link: '</v1/pets>; rel="successor-version", </v1/pets?cursor=a%2Cb>; title="page, two"; rel="NEXT"',
      expected: 'http://api.test/v1/pets?cursor=a%2Cb',
    },
  ])('requests $link resolved against the origin of $baseUrl', async ({ baseUrl, link, expected }) => {
    const { fetch, sent } = scriptedFetch(page([pet], link), page([second]));
    const client = createAnimalStoreClient({ baseUrl, apiKey: 'k', fetch });

    const pets = await collect(client.listAllPets({ limit: 1 }));

    expect(pets).toEqual([pet, second]);
    expect(sent.map((request) => request.url)).toEqual([expect.stringContaining('/pets?limit=1'), expected]);
  });

  it('refuses a next link to another origin, which would receive the API key', async () => {
    const { fetch, sent } = scriptedFetch(page([pet], '<https://elsewhere.test/v1/pets?cursor=abc>; rel="next"'));
    const client = createAnimalStoreClient({ baseUrl: 'http://api.test/v1', apiKey: 'k', fetch });
    const seen: Pet[] = [];

    const outcome = (async () => {
      for await (const pet of client.listAllPets()) seen.push(pet);
    })();

    await expect(outcome).rejects.toThrow(/another origin/);
    expect(seen).toEqual([pet]);
    expect(sent).toHaveLength(1);
  });
});
