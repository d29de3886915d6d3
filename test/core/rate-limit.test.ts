import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import type { NewApiKey } from '../../core/keys/key-store.ts';
import { listen } from '../../node/listen.ts';
import {
  CONTRACT_BAN_RULES,
  FIXED_PLANS,
  planLimits,
  WITHOUT_KEY_LIMITS,
  WITHOUT_KEY_PLAN,
} from '../support/contract-rate-limits.ts';
import { defined } from '../support/defined.ts';
import { SMALL_WINDOW_KEY } from '../support/http.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const MINUTE = 60_000;
let apps: TestApp[] = [];

afterEach(() => {
  for (const app of apps) app.close();
  apps = [];
});

/** An app whose test key is `key`: a key of a plan of the contract, or one with limits of its own. */
async function appWithKey(key: NewApiKey) {
  const app = await createTestApp({ key });
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
  it.each(FIXED_PLANS.map((plan) => [plan, planLimits(plan).perMinute] as const))(
    "a %s key gets its plan's %i requests a minute, counted down in the headers, then 429 rate_limited",
    async (plan, perMinute) => {
      const app = await appWithKey({ plan });
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
    const app = await appWithKey({ plan: 'enterprise', perMinute: 3, perDay: 5 });
    for (let index = 0; index < 3; index += 1) await app.request('/v1/pets');
    // As many refusals as the contract's ban tolerates, so none of them bans.
    for (let index = 0; index < CONTRACT_BAN_RULES.afterRefusals; index += 1)
      expect((await app.request('/v1/pets')).status).toBe(429);
    app.clock.advance(MINUTE);
    const response = await app.request('/v1/pets');
    expect(response.status).toBe(200);
    // 4 answered requests of the day's 5: the 429s are not among them, or the day would be used up.
    expect(rateHeaders(response)).toMatchObject({ limit: 5, remaining: 1 });
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

  it("bans a key that sends more requests while limited than the contract's ban tolerates: 429 key_banned with Retry-After until the ban ends", async () => {
    const { afterRefusals, firstBanSeconds } = CONTRACT_BAN_RULES;
    const app = await appWithKey(SMALL_WINDOW_KEY);
    for (let index = 0; index < SMALL_WINDOW_KEY.perMinute; index += 1) await app.request('/v1/pets');
    const codes: string[] = [];
    for (let index = 0; index < afterRefusals + 1; index += 1)
      codes.push(((await (await app.request('/v1/pets')).json()) as { code: string }).code);
    expect(codes).toEqual([...Array(afterRefusals).fill('rate_limited'), 'key_banned']);
    const banned = await app.request('/v1/pets');
    expect(banned.status).toBe(429);
    expect(await banned.json()).toMatchObject({ code: 'key_banned', status: 429 });
    expect(banned.headers.get('Retry-After')).toBe(String(firstBanSeconds));
    expect(rateHeaders(banned)).toMatchObject({
      remaining: 0,
      reset: seconds(app.clock.now() + firstBanSeconds * 1000),
    });
  });

  it(`limits requests without a valid key per client address on the ${WITHOUT_KEY_PLAN} plan, and their 401s carry that bucket`, async () => {
    const { perMinute } = WITHOUT_KEY_LIMITS;
    const app = await appWithKey({ plan: 'pro' });
    app.setClientAddress('198.51.100.7');
    for (let used = 1; used <= perMinute; used += 1) {
      const response = await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_guess' } });
      expect(response.status).toBe(401);
      expect(rateHeaders(response)).toMatchObject({ limit: perMinute, remaining: perMinute - used });
    }
    const refused = await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_guess' } });
    expect(refused.status).toBe(429);
    // Another address has its own bucket, and the key's own bucket is untouched.
    app.setClientAddress('198.51.100.8');
    expect((await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_guess' } })).status).toBe(401);
    const withKey = await app.request('/v1/pets');
    expect(withKey.status).toBe(200);
    const pro = planLimits('pro').perMinute;
    expect(rateHeaders(withKey)).toMatchObject({ limit: pro, remaining: pro - 1 });
  });

  it('answers a revoked key with 401 at once', async () => {
    const app = await appWithKey({ plan: 'free' });
    expect((await app.request('/v1/pets')).status).toBe(200);
    const [record] = await app.keys.list();
    await app.keys.revoke(defined(record, 'the key of the app').id);
    const response = await app.request('/v1/pets');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('counts the request before validation, so a flood of bad requests is limited too', async () => {
    const app = await appWithKey(SMALL_WINDOW_KEY);
    for (let index = 0; index < SMALL_WINDOW_KEY.perMinute; index += 1)
      expect((await app.request('/v1/pets?limit=0')).status).toBe(400);
    expect((await app.request('/v1/pets?limit=0')).status).toBe(429);
  });

  it('of 200 simultaneous requests on a fresh key of 50 a minute against a listening server, exactly 50 succeed', async () => {
    const app = await appWithKey({ plan: 'enterprise', perMinute: 50, perDay: 1000 });
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
      expect(statuses.filter((status) => status === 200)).toHaveLength(50);
      expect(statuses.filter((status) => status === 429)).toHaveLength(150);
    } finally {
      await server.close();
    }
  });
});
