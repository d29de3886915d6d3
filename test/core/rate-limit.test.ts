import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { listen } from '../../node/listen.ts';
import { defined } from '../support/defined.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const MINUTE = 60_000;
let apps: TestApp[] = [];

afterEach(() => {
  for (const app of apps) app.close();
  apps = [];
});

async function appWithKey(plan: 'free' | 'pro' | 'business') {
  const app = await createTestApp({ key: { plan } });
  apps.push(app);
  return app;
}

function rateHeaders(response: Response) {
  return {
    limit: Number(response.headers.get('X-RateLimit-Limit')),
    remaining: Number(response.headers.get('X-RateLimit-Remaining')),
    reset: Number(response.headers.get('X-RateLimit-Reset')),
  };
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

describe('rate limits over HTTP', () => {
  it.each([
    ['free', 60],
    ['pro', 300],
    ['business', 1000],
  ] as const)(
    'a %s key gets %i requests a minute, counted down in the headers, then 429 rate_limited',
    async (plan, perMinute) => {
      const app = await appWithKey(plan);
      const start = app.clock.now();
      for (let used = 1; used <= perMinute; used += 1) {
        const response = await app.request('/v1/pets');
        expect(response.status).toBe(200);
        expect(rateHeaders(response)).toEqual({
          limit: perMinute,
          remaining: perMinute - used,
          reset: seconds(start + MINUTE),
        });
      }
      app.clock.advance(20_500);
      const refused = await app.request('/v1/pets');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(refused.headers.get('Retry-After')).toBe('40');
      expect(rateHeaders(refused)).toEqual({ limit: perMinute, remaining: 0, reset: seconds(start + MINUTE) });
    },
  );

  it('does not count a 429 against the window, and lets requests through again when the minute window resets', async () => {
    const app = await appWithKey('free');
    for (let index = 0; index < 60; index += 1) await app.request('/v1/pets');
    for (let index = 0; index < 5; index += 1) expect((await app.request('/v1/pets')).status).toBe(429);
    app.clock.advance(MINUTE);
    const response = await app.request('/v1/pets');
    expect(response.status).toBe(200);
    // 61 answered requests of the day: the five 429s are not among them.
    expect(rateHeaders(response)).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('describes the day window once it has fewer requests left than the minute window', async () => {
    const app = await createTestApp({ key: { plan: 'enterprise', perMinute: 10, perDay: 15 } });
    apps.push(app);
    const dayStart = app.clock.now();
    for (let index = 0; index < 10; index += 1) await app.request('/v1/pets');
    app.clock.advance(MINUTE);
    const response = await app.request('/v1/pets');
    expect(rateHeaders(response)).toEqual({ limit: 15, remaining: 4, reset: seconds(dayStart + 24 * 60 * MINUTE) });
  });

  it('bans a key that sends more than 10 requests while limited: 429 key_banned with Retry-After until the ban ends', async () => {
    const app = await appWithKey('free');
    for (let index = 0; index < 60; index += 1) await app.request('/v1/pets');
    const codes: string[] = [];
    for (let index = 0; index < 11; index += 1)
      codes.push(((await (await app.request('/v1/pets')).json()) as { code: string }).code);
    expect(codes).toEqual([...Array(10).fill('rate_limited'), 'key_banned']);
    const banned = await app.request('/v1/pets');
    expect(banned.status).toBe(429);
    expect(await banned.json()).toMatchObject({ code: 'key_banned', status: 429 });
    expect(banned.headers.get('Retry-After')).toBe(String(15 * 60));
    expect(rateHeaders(banned)).toMatchObject({ remaining: 0, reset: seconds(app.clock.now() + 15 * MINUTE) });
  });

  it('limits requests without a valid key per client address on the free plan, and their 401s carry that bucket', async () => {
    const app = await appWithKey('pro');
    app.setClientAddress('198.51.100.7');
    for (let used = 1; used <= 60; used += 1) {
      const response = await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_guess' } });
      expect(response.status).toBe(401);
      expect(rateHeaders(response)).toMatchObject({ limit: 60, remaining: 60 - used });
    }
    const refused = await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_guess' } });
    expect(refused.status).toBe(429);
    // Another address has its own bucket, and the key's own bucket is untouched.
    app.setClientAddress('198.51.100.8');
    expect((await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_guess' } })).status).toBe(401);
    const withKey = await app.request('/v1/pets');
    expect(withKey.status).toBe(200);
    expect(rateHeaders(withKey)).toMatchObject({ limit: 300, remaining: 299 });
  });

  it('answers a revoked key with 401 at once', async () => {
    const app = await appWithKey('free');
    expect((await app.request('/v1/pets')).status).toBe(200);
    const [record] = await app.keys.list();
    await app.keys.revoke(defined(record, 'the key of the app').id);
    const response = await app.request('/v1/pets');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('counts the request before validation, so a flood of bad requests is limited too', async () => {
    const app = await appWithKey('free');
    for (let index = 0; index < 60; index += 1) expect((await app.request('/v1/pets?limit=0')).status).toBe(400);
    expect((await app.request('/v1/pets?limit=0')).status).toBe(429);
  });

  it('of 200 simultaneous requests on a fresh free key against a listening server, exactly 60 succeed', async () => {
    const app = await appWithKey('free');
    const server = await listen(app.app.fetch, '127.0.0.1', 0, { maxBodyBytes: loadContract().largestBodyBytes });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`${server.origin}/v1/pets`, { headers: { Authorization: `Bearer ${app.apiKey}` } }).then(
            async (response) => {
              await response.arrayBuffer();
              return response.status;
            },
          ),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(140);
    } finally {
      await server.close();
    }
  });
});
