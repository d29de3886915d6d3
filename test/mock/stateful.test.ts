// The stateful mock: the real server on an in-memory database, as a frontend developer uses it
// with its fixed key: what it is seeded with, what it keeps, how it goes back to the seed, its
// rate limits and which browser origins may call it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnimalStoreClient } from '../../client/index.ts';
import type { Pet } from '../../generated/openapi.ts';
import { readMockConfig } from '../../mock/node/config.ts';
import { type RunningStatefulMock, STATEFUL_MOCK_KEY, startStatefulMock } from '../../mock/node/stateful-server.ts';
import { collect } from '../support/collect.ts';
import { planLimits } from '../support/contract-rate-limits.ts';
import { exampleValue, expectContractError, RATE_LIMIT_HEADERS, seededPets } from '../support/mock.ts';
import { converse, requestHead } from '../support/raw-http.ts';

const PREFLIGHT = {
  'Access-Control-Request-Method': 'POST',
  'Access-Control-Request-Headers': 'authorization,content-type',
};

/** Requests to `mock` with its development key and a JSON content type. */
function requester(mock: () => RunningStatefulMock) {
  return (path: string, init: RequestInit = {}) =>
    fetch(mock().url + path, {
      ...init,
      headers: {
        Authorization: `Bearer ${STATEFUL_MOCK_KEY}`,
        'Content-Type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });
}

describe('startStatefulMock', () => {
  let mock: RunningStatefulMock;
  beforeAll(async () => {
    mock = await startStatefulMock();
  });
  afterAll(async () => {
    await mock?.close();
  });
  const request = requester(() => mock);
  const createPet = async (body: unknown) => request('/v1/pets', { method: 'POST', body: JSON.stringify(body) });
  const reset = () =>
    fetch(`${mock.url}/__mock/reset`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });

  describe('its key', () => {
    it('accepts the fixed development key it prints', async () => {
      expect(mock.apiKey).toBe(STATEFUL_MOCK_KEY);
      expect((await request('/v1/pets')).status).toBe(200);
    });

    it('refuses any other key with 401', async () => {
      await expectContractError(
        await request('/v1/pets', { headers: { Authorization: 'Bearer ask_not_the_development_key_00' } }),
        401,
        'unauthorized',
      );
    });

    it('is not rate limited by default: 75 requests in a minute all answer 200, with the headers counting down', async () => {
      expect((await reset()).status).toBe(204);
      const sent = 75;
      const answers: Response[] = [];
      for (let index = 0; index < sent; index += 1) answers.push(await request('/v1/pets?limit=1'));

      expect(answers.map((response) => response.status)).toEqual(answers.map(() => 200));
      for (const response of answers) {
        for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toMatch(/^\d+$/);
      }
      const limit = Number(answers[0]?.headers.get('X-RateLimit-Limit'));
      expect(limit).toBeGreaterThan(sent);
      expect(answers.map((response) => Number(response.headers.get('X-RateLimit-Remaining')))).toEqual(
        answers.map((_, index) => limit - 1 - index),
      );
      expect(new Set(answers.map((response) => response.headers.get('X-RateLimit-Reset'))).size).toBe(1);
    });
  });

  describe('its data', () => {
    it("starts with the pets of the contract's examples, under the ids the examples show", async () => {
      const listed = (await (await request('/v1/pets?limit=100')).json()) as Pet[];

      expect(listed).toEqual(seededPets(mock));
      expect(listed).toEqual(expect.arrayContaining(exampleValue('PetsFirstPage') as object[]));
      expect(listed).toEqual(expect.arrayContaining(exampleValue('PetsAvailable') as object[]));
      expect(await (await request('/v1/pets/42')).json()).toEqual(exampleValue('PetFound'));
    });

    it('lists and fetches a pet once it is created', async () => {
      const created = await createPet(exampleValue('NewPetWithStatus'));
      const pet = (await created.json()) as Pet;
      const location = created.headers.get('Location');

      expect(created.status).toBe(201);
      expect(location).toBe(`/v1/pets/${pet.id}`);
      expect(await (await request(`/v1/pets/${pet.id}`)).json()).toEqual(pet);
      expect(await (await request('/v1/pets?limit=100')).json()).toContainEqual(pet);
      expect(pet.id).toBeGreaterThan(Math.max(...seededPets(mock).map((seeded) => seeded.id)));
    });

    it('keeps a change of status the transitions allow, refuses one they do not with 409, and a stale If-Match with 412', async () => {
      const created = (await (await createPet({ name: 'Rex', categoryId: 3, status: 'available' })).json()) as Pet;
      const patch = (body: unknown, headers: Record<string, string> = {}) =>
        request(`/v1/pets/${created.id}`, {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
          body: JSON.stringify(body),
        });
      const before = (await request(`/v1/pets/${created.id}`)).headers.get('ETag') ?? '';

      const sold = await patch({ status: 'sold' }, { 'If-Match': before });
      expect(sold.status).toBe(200);
      expect(await (await request(`/v1/pets/${created.id}`)).json()).toEqual({ ...created, status: 'sold' });
      await expectContractError(await patch({ status: 'available' }), 409, 'invalid_transition');
      await expectContractError(await patch({ name: 'Max' }, { 'If-Match': before }), 412, 'precondition_failed');
      expect(await (await request(`/v1/pets/${created.id}`)).json()).toEqual({ ...created, status: 'sold' });
    });

    it('removes a pet (204): its fetch is a 404, no list shows it, a stale If-Match removes nothing, and a reset brings a seeded one back', async () => {
      const created = (await (await createPet({ name: 'Rex', categoryId: 3, status: 'available' })).json()) as Pet;
      const remove = (id: number, headers: Record<string, string> = {}) =>
        request(`/v1/pets/${id}`, { method: 'DELETE', headers });
      await expectContractError(
        await remove(created.id, { 'If-Match': '"0000000000000000"' }),
        412,
        'precondition_failed',
      );
      expect((await request(`/v1/pets/${created.id}`)).status).toBe(200);

      const removed = await remove(created.id);
      expect(removed.status).toBe(204);
      await expectContractError(await request(`/v1/pets/${created.id}`), 404, 'not_found');
      expect(await (await request('/v1/pets?limit=100')).json()).not.toContainEqual(created);
      await expectContractError(await remove(created.id), 404, 'not_found');

      const [seeded] = seededPets(mock);
      const first = seeded as Pet;
      expect((await remove(first.id)).status).toBe(204);
      await reset();
      expect(await (await request(`/v1/pets/${first.id}`)).json()).toEqual(first);
    });

    it('refuses an order naming no pet, or a removed one, with 400 naming petId, as the service does', async () => {
      const created = (await (await createPet({ name: 'Rex', categoryId: 3, status: 'available' })).json()) as Pet;
      const order = (petId: number) =>
        request('/v1/store/orders', { method: 'POST', body: JSON.stringify({ petId, quantity: 1 }) });
      expect((await order(created.id)).status).toBe(201);
      await request(`/v1/pets/${created.id}`, { method: 'DELETE' });
      const refused = await expectContractError(await order(created.id), 400, 'validation_failed');
      expect(refused).toMatchObject({ details: [{ in: 'body', name: 'petId' }] });
    });

    it('replays a create repeated with its Idempotency-Key, as the service does, creating one pet', async () => {
      const body = JSON.stringify(exampleValue('NewPetWithStatus'));
      const post = () => request('/v1/pets', { method: 'POST', body, headers: { 'Idempotency-Key': 'mock-retry-1' } });
      const first = await post();
      const again = await post();

      expect(again.status).toBe(201);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
      expect(await again.text()).toBe(await first.text());
      const reused = await request('/v1/pets', {
        method: 'POST',
        body: JSON.stringify(exampleValue('NewPetMinimal')),
        headers: { 'Idempotency-Key': 'mock-retry-1' },
      });
      await expectContractError(reused, 422, 'idempotency_key_reused');
    });

    it('goes back to the seed on POST /__mock/reset (204): created pets are gone, seeded ones back', async () => {
      const created = (await (await createPet(exampleValue('NewPetWithStatus'))).json()) as Pet;
      expect((await request(`/v1/pets/${created.id}`)).status).toBe(200);

      const answer = await reset();

      expect(answer.status).toBe(204);
      await expectContractError(await request(`/v1/pets/${created.id}`), 404, 'not_found');
      expect(await (await request('/v1/pets?limit=100')).json()).toEqual(seededPets(mock));
    });
  });

  describe('what a web page cannot make it do', () => {
    it.each([
      ['text/plain', { 'Content-Type': 'text/plain' }],
      ['a form', { 'Content-Type': 'application/x-www-form-urlencoded' }],
      ['no content type', {}],
    ])('refuses POST /__mock/reset sent as %s with 415, and resets nothing', async (_case, headers) => {
      const created = (await (await createPet(exampleValue('NewPetWithStatus'))).json()) as Pet;

      const answer = await fetch(`${mock.url}/__mock/reset`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', ...headers },
        body: 'x',
      });

      expect(answer.status).toBe(415);
      expect(await answer.json()).toMatchObject({ code: 'unsupported_media_type', status: 415 });
      expect((await request(`/v1/pets/${created.id}`)).status).toBe(200);
    });

    it.each(['evil.example', 'evil.example:4010', '192.168.1.20', 'localhost.evil.example'])(
      'answers no request whose Host is %s (DNS rebinding), on /__mock/* or the API',
      async (host) => {
        const created = (await (await createPet(exampleValue('NewPetWithStatus'))).json()) as Pet;
        for (const [method, path] of [
          ['POST', '/__mock/reset'],
          ['GET', '/v1/pets'],
        ] as const) {
          const conversation = await converse(mock.url, [
            requestHead(method, path, [
              ['Host', host],
              ['Authorization', `Bearer ${STATEFUL_MOCK_KEY}`],
              ['Content-Type', 'application/json'],
              ['Content-Length', 0],
            ]),
          ]);
          const [answer] = conversation.responses;
          expect(answer?.status, `${method} ${path}`).toBe(400);
          expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({
            code: 'validation_failed',
            message: expect.stringContaining('MOCK_ALLOWED_HOSTS'),
          });
        }
        expect((await request(`/v1/pets/${created.id}`)).status).toBe(200);
      },
    );

    it.each(['localhost:4010', 'app.localhost', '127.0.0.1', '127.0.0.2:80', '[::1]:4010'])(
      'answers a request whose Host is %s',
      async (host) => {
        const conversation = await converse(mock.url, [
          requestHead('GET', '/v1/pets', [
            ['Host', host],
            ['Authorization', `Bearer ${STATEFUL_MOCK_KEY}`],
          ]),
        ]);
        expect(conversation.responses.map((answer) => answer.status)).toEqual([200]);
      },
    );

    it('answers a host listed in MOCK_ALLOWED_HOSTS', async () => {
      const listed = await startStatefulMock({
        allowedHosts: readMockConfig({ MOCK_ALLOWED_HOSTS: 'devbox.internal' }).allowedHosts,
      });
      try {
        const conversation = await converse(listed.url, [
          requestHead('GET', '/v1/pets', [
            ['Host', 'DevBox.internal:4010'],
            ['Authorization', `Bearer ${STATEFUL_MOCK_KEY}`],
          ]),
        ]);
        expect(conversation.responses.map((answer) => answer.status)).toEqual([200]);
      } finally {
        await listed.close();
      }
    });
  });

  describe('CORS, for a frontend on a dev server', () => {
    it.each([
      ['http://localhost:5173', '/v1/pets'],
      ['http://127.0.0.1:3000', '/v1/pets'],
      ['http://localhost:5173', '/v1/pets/42'],
      ['http://localhost:5173', '/__mock/reset'],
    ])('lets %s call %s: the preflight echoes the origin', async (origin, path) => {
      const response = await fetch(mock.url + path, { method: 'OPTIONS', headers: { Origin: origin, ...PREFLIGHT } });

      expect(response.status).toBe(204);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe(origin);
    });

    it.each(['https://example.com', 'http://localhost.example.com', 'null'])(
      'does not let %s call it: the preflight allows no origin',
      async (origin) => {
        const response = await fetch(`${mock.url}/v1/pets`, {
          method: 'OPTIONS',
          headers: { Origin: origin, ...PREFLIGHT },
        });

        expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
      },
    );
  });
});

describe('startStatefulMock with corsOrigins', () => {
  let mock: RunningStatefulMock;
  beforeAll(async () => {
    mock = await startStatefulMock({ corsOrigins: ['https://app.example'] });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it.each([
    ['https://app.example', 'https://app.example'],
    ['http://localhost:5173', null],
    ['http://127.0.0.1:3000', null],
    ['https://example.com', null],
  ])('answers a preflight from %s with Access-Control-Allow-Origin %s', async (origin, allowed) => {
    const response = await fetch(`${mock.url}/v1/pets`, {
      method: 'OPTIONS',
      headers: { Origin: origin, ...PREFLIGHT },
    });

    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(allowed);
  });
});

describe("startStatefulMock with { plan: 'free' }", () => {
  let mock: RunningStatefulMock;
  beforeAll(async () => {
    mock = await startStatefulMock({ plan: 'free' });
  });
  afterAll(async () => {
    await mock?.close();
  });
  const request = requester(() => mock);

  it('counts every request against the free plan and answers 429 rate_limited once the minute is used up', async () => {
    const first = await request('/v1/pets');
    const limit = Number(first.headers.get('X-RateLimit-Limit'));
    expect(limit).toBe(planLimits('free').perMinute);
    expect(first.headers.get('X-RateLimit-Remaining')).toBe(String(limit - 1));

    const statuses: number[] = [first.status];
    for (let sent = 1; sent < limit; sent += 1) statuses.push((await request('/v1/pets')).status);
    const refused = await request('/v1/pets');

    expect(statuses).toEqual(statuses.map(() => 200));
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    await expectContractError(refused, 429, 'rate_limited');
  });
});

describe("startStatefulMock with { pets: 45, seed: 'x' }", () => {
  let mock: RunningStatefulMock;
  let again: RunningStatefulMock;
  beforeAll(async () => {
    mock = await startStatefulMock({ pets: 45, seed: 'x' });
    again = await startStatefulMock({ pets: 45, seed: 'x' });
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), again?.close()]);
  });

  it('seeds 45 generated pets with the ids 1 to 45', () => {
    expect(seededPets(mock).map((pet) => pet.id)).toEqual(Array.from({ length: 45 }, (_, index) => index + 1));
    expect(seededPets(mock)).not.toContainEqual(exampleValue('PetFound'));
  });

  it('seeds the same items in every collection for the same seed', () => {
    expect(again.seeded).toEqual(mock.seeded);
  });

  it.each<[string, { limit?: number }]>([
    ['{ limit: 20 }', { limit: 20 }],
    ['{ limit: 7 }', { limit: 7 }],
    ['no limit (20 a page)', {}],
  ])('lists them all through pages, with %s', async (_shown, query) => {
    let pages = 0;
    const client = createAnimalStoreClient({
      baseUrl: `${mock.url}/v1`,
      apiKey: mock.apiKey,
      fetch: (request) => {
        pages += 1;
        return fetch(request);
      },
    });

    expect(await collect(client.listAllPets(query), 50)).toEqual(seededPets(mock));
    expect(pages).toBe(Math.ceil(45 / (query.limit ?? 20)));
  });

  it('goes back to the same 45 pets on POST /__mock/reset', async () => {
    const request = requester(() => mock);
    const created = (await (
      await request('/v1/pets', { method: 'POST', body: '{"name":"Rex","categoryId":3}' })
    ).json()) as Pet;
    expect(created.id).toBe(46);

    expect(
      (await fetch(`${mock.url}/__mock/reset`, { method: 'POST', headers: { 'Content-Type': 'application/json' } }))
        .status,
    ).toBe(204);

    expect((await request('/v1/pets/46')).status).toBe(404);
    expect((await request('/v1/pets/45')).status).toBe(200);
  });
});
