// A key's lifecycle as callers see it: an expired key is a 401 like a revoked one, a rotated key
// inherits the windows and bans of the key it replaces, and its use is recorded without a write
// per request.
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { fixedLimits, rateLimitRules } from '../../../contract/rate-limit-rules.ts';
import { defined } from '../../support/defined.ts';
import { expectError } from '../../support/http.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const FREE_PER_MINUTE = fixedLimits(rateLimitRules(loadContract().document), 'free').perMinute;

const apps: TestApp[] = [];
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
});

async function app(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const created = await createTestApp(options);
  apps.push(created);
  return created;
}

const withKey = (t: TestApp, secret: string) =>
  t.request('/v1/pets', { headers: { Authorization: `Bearer ${secret}` } });

describe('an API key with an expiry', () => {
  it('is answered 401 unauthorized with WWW-Authenticate from its expiry on', async () => {
    const t = await app();
    const { secret } = await t.keys.create({ plan: 'free', expiresAt: new Date(t.clock.now() + 60_000).toISOString() });
    expect((await withKey(t, secret)).status).toBe(200);
    t.clock.advance(60_000);
    const refused = await withKey(t, secret);
    await expectError(refused, 401, 'unauthorized');
    expect(refused.headers.get('WWW-Authenticate')).toBe('Bearer');
  });
});

describe('a rotated API key', () => {
  it('counts against the windows of the key it replaces: rotating does not reset a used-up minute', async () => {
    const t = await app();
    const old = await t.keys.create({ plan: 'free' });
    for (let sent = 0; sent < FREE_PER_MINUTE; sent++) expect((await withKey(t, old.secret)).status).toBe(200);
    const rotated = defined(await t.keys.rotate(old.record.id, 60 * 60_000), 'the rotated key');
    await expectError(await withKey(t, rotated.secret), 429, 'rate_limited');
  });

  it('replays a create made with the key it replaces, when retried with the same Idempotency-Key', async () => {
    const t = await app();
    const old = await t.keys.create({ plan: 'free' });
    const post = (secret: string) =>
      t.request('/v1/pets', {
        method: 'POST',
        json: { name: 'Rex', categoryId: 1 },
        headers: { Authorization: `Bearer ${secret}`, 'Idempotency-Key': 'before-rotation' },
      });
    const first = await post(old.secret);
    const rotated = defined(await t.keys.rotate(old.record.id, 0), 'the rotated key');
    const retried = await post(rotated.secret);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.text()).toBe(await first.text());
  });

  it('stays banned when the banned key is rotated', async () => {
    const t = await app();
    const old = await t.keys.create({ plan: 'free' });
    for (let sent = 0; sent < FREE_PER_MINUTE; sent++) await withKey(t, old.secret);
    // Keeps sending while limited until banned.
    await expect
      .poll(async () => ((await (await withKey(t, old.secret)).json()) as { code: string }).code)
      .toBe('key_banned');
    const rotated = defined(await t.keys.rotate(old.record.id, 0), 'the rotated key');
    await expectError(await withKey(t, rotated.secret), 429, 'key_banned');
  });
});

describe('the last use of an API key', () => {
  it('is written once for many requests in one minute, and again in the next minute', async () => {
    const t = await app();
    const changes = () => t.db.prepare<[], number>('SELECT total_changes()').pluck().get() ?? 0;
    const lastUse = () =>
      (t.db.prepare('SELECT last_used_at FROM api_keys WHERE id = 1').pluck().get() ?? null) as string | null;
    t.clock.set('2026-11-22T10:00:10Z');
    const before = changes();
    for (let sent = 0; sent < 30; sent++) expect((await t.request('/v1/pets')).status).toBe(200);
    await expect.poll(lastUse).toBe('2026-11-22T10:00:00.000Z');
    expect(changes() - before).toBe(1);
    t.clock.set('2026-11-22T10:01:30Z');
    for (let sent = 0; sent < 30; sent++) await t.request('/v1/pets');
    await expect.poll(lastUse).toBe('2026-11-22T10:01:00.000Z');
    expect(changes() - before).toBe(2);
  });
});
