import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createAnimalStoreClient, type RetryOptions } from '../../client/index.ts';
import { retryingFetch } from '../../client/retrying-fetch.ts';
import {
  BASE_URL,
  clientOfTestApp,
  jsonResponse,
  pet,
  recordingSleep,
  scriptedFetch,
  tooManyRequests,
} from '../support/client.ts';
import { CONTRACT_BAN_RULES } from '../support/contract-rate-limits.ts';
import { defined } from '../support/defined.ts';
import { SMALL_WINDOW_KEY } from '../support/http.ts';
import { createTestApp } from '../support/test-app.ts';

function scriptedClient(script: Array<Response | Error>, retry: Omit<RetryOptions, 'sleep'> = {}) {
  const { fetch, sent } = scriptedFetch(...script);
  const { waits, sleep } = recordingSleep();
  const client = createAnimalStoreClient({ baseUrl: BASE_URL, apiKey: 'test-key', fetch, retry: { ...retry, sleep } });
  return { client, sent, waits };
}

const newPet = { name: 'Rex', categoryId: 3, status: 'available' } as const;

describe('createAnimalStoreClient: retrying 429', () => {
  it('waits exactly the Retry-After seconds, then sends again', async () => {
    const { client, sent, waits } = scriptedClient([tooManyRequests('rate_limited', 7), jsonResponse([pet])]);

    const { data, response } = await client.GET('/pets');

    expect(response.status).toBe(200);
    expect(data).toEqual([pet]);
    expect(waits).toEqual([7_000]);
    expect(sent).toHaveLength(2);
  });

  it("returns the 200 that follows two 429s, after waiting each one's Retry-After", async () => {
    const { client, sent, waits } = scriptedClient([
      tooManyRequests('rate_limited', 1),
      tooManyRequests('rate_limited', 3),
      jsonResponse([pet]),
    ]);

    const { data, response } = await client.GET('/pets');

    expect(response.status).toBe(200);
    expect(data).toEqual([pet]);
    expect(waits).toEqual([1_000, 3_000]);
    expect(sent).toHaveLength(3);
  });

  it('sends the bearer key and the same body on every attempt of a POST', async () => {
    const { client, sent } = scriptedClient([tooManyRequests('rate_limited', 1), jsonResponse(pet, 201)]);

    const { data } = await client.POST('/pets', { body: newPet });

    expect(data).toEqual(pet);
    expect(sent.map(({ method, authorization, body }) => ({ method, authorization, body }))).toEqual([
      { method: 'POST', authorization: 'Bearer test-key', body: JSON.stringify(newPet) },
      { method: 'POST', authorization: 'Bearer test-key', body: JSON.stringify(newPet) },
    ]);
  });

  it('backs off exponentially with full jitter when there is no Retry-After', async () => {
    const draws = [0.25, 0.75, 0.5, 0.5];
    const { client, waits } = scriptedClient(
      [
        tooManyRequests('rate_limited'),
        tooManyRequests('rate_limited'),
        tooManyRequests('rate_limited'),
        tooManyRequests('rate_limited'),
        jsonResponse([pet]),
      ],
      {
        attempts: 5,
        baseDelayMs: 1_000,
        maxDelayMs: 3_000,
        random: () => defined(draws.shift(), 'another random draw'),
      },
    );

    const { response } = await client.GET('/pets');

    expect(response.status).toBe(200);
    // Each wait is the draw times a ceiling that doubles from baseDelayMs and stops at maxDelayMs.
    expect(waits).toEqual([0.25 * 1_000, 0.75 * 2_000, 0.5 * 3_000, 0.5 * 3_000]);
  });

  it.each([
    ['a draw near 0', () => 0],
    ['a draw near 1', () => 0.999_999],
  ])('keeps the backoff within [0, ceiling) with %s', async (_name, random) => {
    const { client, waits } = scriptedClient(
      [tooManyRequests('rate_limited'), tooManyRequests('rate_limited'), jsonResponse([pet])],
      {
        baseDelayMs: 400,
        random,
      },
    );

    await client.GET('/pets');

    expect(waits).toHaveLength(2);
    waits.forEach((wait, index) => {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThan(400 * 2 ** index);
    });
  });

  it('backs off when Retry-After is not a number of seconds', async () => {
    const notSeconds = jsonResponse({ code: 'rate_limited', message: 'Later.', status: 429 }, 429, {
      'Retry-After': 'Wed, 21 Oct 2037 07:28:00 GMT',
    });
    const { client, waits } = scriptedClient([notSeconds, jsonResponse([pet])], {
      baseDelayMs: 1_000,
      random: () => 0.5,
    });

    await client.GET('/pets');

    expect(waits).toEqual([500]);
  });

  it.each([
    { attempts: undefined, sends: 3 },
    { attempts: 1, sends: 1 },
    { attempts: 2, sends: 2 },
    { attempts: 5, sends: 5 },
  ])('sends at most $sends times with attempts $attempts, then returns the last 429', async ({ attempts, sends }) => {
    const script = Array.from({ length: sends }, () => tooManyRequests('rate_limited', 1));
    const { client, sent, waits } = scriptedClient(script, { attempts });

    const { error, response } = await client.GET('/pets');

    expect(response.status).toBe(429);
    expect(error).toMatchObject({ code: 'rate_limited' });
    expect(sent).toHaveLength(sends);
    expect(waits).toHaveLength(sends - 1);
  });

  it.each([0, 1.5, -1])('refuses attempts %s', (attempts) => {
    expect(() => createAnimalStoreClient({ baseUrl: BASE_URL, apiKey: 'k', retry: { attempts } })).toThrow(RangeError);
  });

  it('returns the 429 at once when the next wait would go past maxTotalWaitMs', async () => {
    const { client, sent, waits } = scriptedClient(
      [tooManyRequests('rate_limited', 30), tooManyRequests('rate_limited', 31), jsonResponse([pet])],
      {
        attempts: 5,
        maxTotalWaitMs: 60_000,
      },
    );

    const { response } = await client.GET('/pets');

    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('31');
    expect(waits).toEqual([30_000]);
    expect(sent).toHaveLength(2);
  });

  it('waits by default up to 60 seconds in total, and not longer', async () => {
    const withinBudget = scriptedClient([tooManyRequests('rate_limited', 60), jsonResponse([pet])]);
    const overBudget = scriptedClient([tooManyRequests('rate_limited', 61)]);

    expect((await withinBudget.client.GET('/pets')).response.status).toBe(200);
    expect(withinBudget.waits).toEqual([60_000]);
    expect((await overBudget.client.GET('/pets')).response.status).toBe(429);
    expect(overBudget.waits).toEqual([]);
    expect(overBudget.sent).toHaveLength(1);
  });

  it('returns a key_banned 429 at once without sending again', async () => {
    // A short Retry-After and a long budget, so only the ban itself can stop the retry.
    const { client, sent, waits } = scriptedClient([tooManyRequests('key_banned', 5), jsonResponse([pet])], {
      maxTotalWaitMs: 3_600_000,
    });

    const { error, response } = await client.GET('/pets');

    expect(response.status).toBe(429);
    expect(error).toMatchObject({ code: 'key_banned' });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('never resends a POST without an Idempotency-Key answered 503 service_unavailable: it may have been stored', async () => {
    const { fetch, sent } = scriptedFetch(
      jsonResponse({ code: 'service_unavailable', message: 'It may have been stored.', status: 503 }, 503, {
        'Retry-After': '5',
      }),
      jsonResponse(pet, 201),
    );
    const { waits, sleep } = recordingSleep();
    const send = retryingFetch(fetch, { sleep });

    const response = await send(new Request(`${BASE_URL}/pets`, { method: 'POST', body: '{}' }));

    expect(response.status).toBe(503);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('retries a GET answered 503 service_unavailable after its Retry-After: a read changed nothing', async () => {
    const { client, sent, waits } = scriptedClient([
      jsonResponse({ code: 'service_unavailable', message: 'Retry.', status: 503 }, 503, { 'Retry-After': '5' }),
      jsonResponse([pet]),
    ]);

    const { data } = await client.GET('/pets');

    expect(data).toEqual([pet]);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([5_000]);
  });

  it.each([400, 401, 404, 500])('does not retry a %s', async (status) => {
    const { client, sent } = scriptedClient([
      jsonResponse({ code: 'internal_error', message: 'No.', status }, status, { 'Retry-After': '1' }),
    ]);

    const { response } = await client.GET('/pets');

    expect(response.status).toBe(status);
    expect(sent).toHaveLength(1);
  });
});

describe('createAnimalStoreClient: retrying network failures', () => {
  it('retries a GET whose fetch rejected, with backoff', async () => {
    const { client, sent, waits } = scriptedClient([new TypeError('fetch failed'), jsonResponse([pet])], {
      baseDelayMs: 1_000,
      random: () => 0.5,
    });

    const { data } = await client.GET('/pets');

    expect(data).toEqual([pet]);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([500]);
  });

  it('rethrows the network failure of a GET once the attempts are used up', async () => {
    const failure = new TypeError('fetch failed');
    const { client, sent } = scriptedClient([failure, failure, failure]);

    await expect(client.GET('/pets')).rejects.toBe(failure);
    expect(sent).toHaveLength(3);
  });

  it('resends a create whose fetch rejected with the same Idempotency-Key, so the service answers it once', async () => {
    const failure = new TypeError('fetch failed');
    const { client, sent } = scriptedClient([failure, jsonResponse(pet, 201)], { random: () => 0 });

    const { data } = await client.POST('/pets', { body: newPet });

    expect(data).toEqual(pet);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent[1]?.body).toBe(JSON.stringify(newPet));
  });

  it('never resends a POST without an Idempotency-Key whose fetch rejected: it may have been stored', async () => {
    const failure = new TypeError('fetch failed');
    const { fetch, sent } = scriptedFetch(failure, jsonResponse(pet, 201));
    const { waits, sleep } = recordingSleep();
    const send = retryingFetch(fetch, { sleep });

    await expect(send(new Request(`${BASE_URL}/pets`, { method: 'POST', body: '{}' }))).rejects.toBe(failure);
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('createAnimalStoreClient: Idempotency-Key on creates', () => {
  it('sends a fresh key with every create, and the same key with each of its retries', async () => {
    const unavailable = () =>
      jsonResponse({ code: 'service_unavailable', message: 'Retry.', status: 503 }, 503, { 'Retry-After': '1' });
    const { client, sent } = scriptedClient([unavailable(), jsonResponse(pet, 201), jsonResponse(pet, 201)]);

    await client.POST('/pets', { body: newPet });
    await client.POST('/pets', { body: newPet });

    const [first, retry, second] = sent.map(({ idempotencyKey }) => idempotencyKey);
    expect(first).toEqual(expect.any(String));
    expect(retry).toBe(first);
    expect(second).toEqual(expect.any(String));
    expect(second).not.toBe(first);
  });

  it('keeps a key the caller chose', async () => {
    const { client, sent } = scriptedClient([jsonResponse(pet, 201)]);

    await client.POST('/pets', { body: newPet, params: { header: { 'Idempotency-Key': 'order-7-pet' } } });

    expect(sent[0]?.idempotencyKey).toBe('order-7-pet');
  });

  it('sends no key with a GET', async () => {
    const { client, sent } = scriptedClient([jsonResponse([pet])]);

    await client.GET('/pets');

    expect(sent[0]?.idempotencyKey).toBeNull();
  });

  it('waits out a 409 idempotency_key_in_progress and gets the first answer', async () => {
    const { client, sent, waits } = scriptedClient([
      jsonResponse({ code: 'idempotency_key_in_progress', message: 'Wait.', status: 409 }, 409, { 'Retry-After': '1' }),
      jsonResponse(pet, 201, { 'Idempotent-Replayed': 'true' }),
    ]);

    const { data } = await client.POST('/pets', { body: newPet });

    expect(data).toEqual(pet);
    expect(waits).toEqual([1_000]);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
  });

  it('answers a 422 idempotency_key_reused at once', async () => {
    const { client, sent } = scriptedClient([
      jsonResponse({ code: 'idempotency_key_reused', message: 'Reused.', status: 422 }, 422),
    ]);

    const { error } = await client.POST('/pets', { body: newPet, params: { header: { 'Idempotency-Key': 'k' } } });

    expect(error?.code).toBe('idempotency_key_reused');
    expect(sent).toHaveLength(1);
  });

  it('creates one animal on the real server when the answer to a create is lost and the create retried', async () => {
    const app = await createTestApp();
    onTestFinished(() => app.close());
    let answers = 0;
    const client = createAnimalStoreClient({
      baseUrl: BASE_URL,
      apiKey: app.apiKey,
      // The server stores the animal, but its first answer never reaches the client.
      fetch: async (request) => {
        const response = await app.app.fetch(request);
        answers += 1;
        if (answers === 1) throw new TypeError('fetch failed');
        return response;
      },
      retry: { sleep: async () => {} },
    });

    const { data, response } = await client.POST('/pets', { body: newPet });

    expect(response.status).toBe(201);
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await app.pets.list({ limit: 10 })).items).toEqual([data]);
  });
});

describe('createAnimalStoreClient: cancelling a wait', () => {
  it('rejects with the AbortError when the signal fires during the wait, and sends nothing more', async () => {
    const controller = new AbortController();
    const { fetch, sent } = scriptedFetch(tooManyRequests('rate_limited', 30), jsonResponse([pet]));
    const waits: number[] = [];
    const client = createAnimalStoreClient({
      baseUrl: BASE_URL,
      apiKey: 'k',
      fetch,
      retry: {
        // A wait that only an abort can end.
        sleep: (ms) => {
          waits.push(ms);
          queueMicrotask(() => controller.abort());
          return new Promise(() => {});
        },
      },
    });

    await expect(client.GET('/pets', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(waits).toEqual([30_000]);
    expect(sent).toHaveLength(1);
  });
});

describe('createAnimalStoreClient: the default wait', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a timer of the Retry-After seconds', async () => {
    const { fetch, sent } = scriptedFetch(tooManyRequests('rate_limited', 60), jsonResponse([pet]));
    const client = createAnimalStoreClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });

    const call = client.GET('/pets');
    await vi.advanceTimersByTimeAsync(59_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);

    expect((await call).data).toEqual([pet]);
    expect(sent).toHaveLength(2);
  });

  it('clears its timer on abort, so a cancelled call keeps nothing pending', async () => {
    const controller = new AbortController();
    const { fetch, sent } = scriptedFetch(tooManyRequests('rate_limited', 60), jsonResponse([pet]));
    const client = createAnimalStoreClient({ baseUrl: BASE_URL, apiKey: 'k', fetch });

    const outcome = client.GET('/pets', { signal: controller.signal }).catch((error: unknown) => error);
    await vi.waitUntil(() => vi.getTimerCount() === 1);
    controller.abort();

    expect(await outcome).toMatchObject({ name: 'AbortError' });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });
});

describe('createAnimalStoreClient: retrying against the real server', () => {
  it('gets the 200 after waiting out the Retry-After of a used-up minute window', async () => {
    const waits: number[] = [];
    const { app, client, sent } = await clientOfTestApp(
      { key: SMALL_WINDOW_KEY },
      {
        retry: {
          sleep: async (ms) => {
            waits.push(ms);
            app.clock.advance(ms);
          },
        },
      },
    );
    onTestFinished(() => {
      app.close();
    });
    for (let request = 0; request < SMALL_WINDOW_KEY.perMinute; request++)
      expect((await app.request('/v1/pets')).status).toBe(200);

    const { response } = await client.GET('/pets');

    expect(response.status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(waits).toEqual([60_000]);
  });

  it('returns key_banned at once for a banned key', async () => {
    const { waits, sleep } = recordingSleep();
    const { afterRefusals, firstBanSeconds } = CONTRACT_BAN_RULES;
    // A budget longer than the ban, so only the ban itself can stop the retry.
    const { app, client, sent } = await clientOfTestApp(
      { key: SMALL_WINDOW_KEY },
      { retry: { sleep, maxTotalWaitMs: 2 * firstBanSeconds * 1000 } },
    );
    onTestFinished(() => {
      app.close();
    });
    for (let request = 0; request < SMALL_WINDOW_KEY.perMinute; request++) await app.request('/v1/pets');
    // The contract's ban tolerates `afterRefusals` refused requests; the next one starts the ban.
    for (let request = 0; request < afterRefusals + 1; request++)
      expect((await app.request('/v1/pets')).status).toBe(429);

    const { error, response } = await client.GET('/pets');

    expect(response.status).toBe(429);
    expect(error).toMatchObject({ code: 'key_banned' });
    expect(sent).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});
