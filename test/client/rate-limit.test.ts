import { describe, expect, it, onTestFinished } from 'vitest';
import { rateLimit } from '../../client/index.ts';
import { clientOfTestApp } from '../support/client.ts';
import { SMALL_WINDOW_KEY } from '../support/http.ts';

const { perMinute } = SMALL_WINDOW_KEY;

/** A client of the real server with a key of small limits of its own. */
async function limitedClient() {
  // One attempt, so a 429 comes back as it is instead of being waited out.
  const t = await clientOfTestApp({ key: SMALL_WINDOW_KEY }, { retry: { attempts: 1 } });
  onTestFinished(() => {
    t.app.close();
  });
  return t;
}

describe('rateLimit against the real server', () => {
  it("reads the key's minute window from the first response", async () => {
    const { app, client } = await limitedClient();
    const windowEnd = Math.ceil(app.clock.now() / 1000) + 60;

    const { response } = await client.GET('/pets');

    expect(client.rateLimit(response)).toEqual({
      limit: perMinute,
      remaining: perMinute - 1,
      reset: windowEnd,
      resetAt: new Date(windowEnd * 1000),
    });
  });

  it('counts down with each request, error responses included', async () => {
    const { client } = await limitedClient();

    await client.GET('/pets');
    await client.GET('/pets/{petId}', { params: { path: { petId: 404 } } });
    const { response } = await client.GET('/pets', { params: { query: { limit: 3 } } });

    expect(client.rateLimit(response)?.remaining).toBe(perMinute - 3);
  });

  it('reports 0 remaining on the 429 of a used-up window', async () => {
    const { app, client } = await limitedClient();
    for (let request = 0; request < perMinute; request++) await app.request('/v1/pets');

    const { response } = await client.GET('/pets');

    expect(response.status).toBe(429);
    expect(client.rateLimit(response)).toMatchObject({ limit: perMinute, remaining: 0 });
  });
});

describe('rateLimit', () => {
  const complete = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '12', 'X-RateLimit-Reset': '1795219260' };

  it('reads whole numbers from the headers', () => {
    expect(rateLimit(new Response(null, { headers: complete }))).toEqual({
      limit: 60,
      remaining: 12,
      reset: 1795219260,
      resetAt: new Date('2026-11-21T00:01:00Z'),
    });
  });

  it.each([
    ['no headers', {}],
    ['no X-RateLimit-Reset', { ...complete, 'X-RateLimit-Reset': undefined }],
    ['no X-RateLimit-Limit', { ...complete, 'X-RateLimit-Limit': undefined }],
    ['a negative remaining', { ...complete, 'X-RateLimit-Remaining': '-1' }],
    ['a fractional limit', { ...complete, 'X-RateLimit-Limit': '1.5' }],
    ['a reset that is a date', { ...complete, 'X-RateLimit-Reset': 'Thu, 05 Dec 2030 00:00:00 GMT' }],
    ['an empty remaining', { ...complete, 'X-RateLimit-Remaining': '' }],
  ])('is undefined with %s', (_name, headers) => {
    const present = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >;
    expect(rateLimit(new Response(null, { headers: present }))).toBeUndefined();
  });
});
