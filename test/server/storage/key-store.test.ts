// KeyStore's behaviour, the same on SQLite and PostgreSQL. What only SQLite shows (what its file
// holds) is in sqlite-key-store.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../core/clock.ts';
import { UsageError } from '../../../core/errors.ts';
import { hashKey } from '../../../server/keys/api-key.ts';
import { postgresReachable } from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { type StorageEngine, useEmptyDatabase } from '../../support/storage-engines.ts';

const START = Date.parse('2026-11-21T09:30:00.000Z');

describe('KeyStore on SQLite', () => keyStoreBehaviour('SQLite'));
describe.skipIf(!(await postgresReachable()))('KeyStore on PostgreSQL', () => keyStoreBehaviour('PostgreSQL'));

function keyStoreBehaviour(engine: StorageEngine): void {
  let now = START;
  const clock: Clock = { now: () => now };
  const database = useEmptyDatabase(engine, clock);
  const store = () => database.storage().keys;
  beforeEach(() => {
    now = START;
  });

  describe('create', () => {
    it('returns the record and a prefixed secret', async () => {
      const { record, secret } = await store().create({ plan: 'pro', label: 'billing' });
      expect(secret).toMatch(/^ask_/);
      expect(record).toEqual({
        id: 1,
        label: 'billing',
        plan: 'pro',
        perMinute: null,
        perDay: null,
        createdAt: '2026-11-21T09:30:00.000Z',
        revokedAt: null,
        expiresAt: null,
        lastUsedAt: null,
        lineage: 1,
      });
    });

    it('stores the own limits of an enterprise key', async () => {
      const { record } = await store().create({ plan: 'enterprise', perMinute: 5000, perDay: 1_000_000 });
      expect(record).toMatchObject({ plan: 'enterprise', perMinute: 5000, perDay: 1_000_000, label: null });
    });

    it.each([
      ['an enterprise key without limits', { plan: 'enterprise' as const }],
      ['a free key with limits', { plan: 'free' as const, perMinute: 1, perDay: 1 }],
    ])('rejects %s and stores nothing', async (_, key) => {
      await expect(store().create(key)).rejects.toThrow(UsageError);
      expect(await store().count()).toBe(0);
    });

    it('keeps only the SHA-256 hash of the secret in the database', async () => {
      const { secret } = await store().create({ plan: 'free', label: 'scan me' });
      const rows = JSON.stringify(await database.query('SELECT * FROM api_keys'));
      expect(rows).toContain(hashKey(secret));
      expect(rows).not.toContain(secret);
      expect(rows).not.toContain(secret.slice('ask_'.length));
    });
  });

  describe('findActive', () => {
    it('finds a key by its secret', async () => {
      const { record, secret } = await store().create({ plan: 'business' });
      expect(await store().findActive(secret)).toEqual(record);
    });

    it.each([
      ['an unknown key of the right shape', 'ask_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['the prefix alone', 'ask_'],
      ['an empty string', ''],
    ])('finds nothing for %s', async (_, secret) => {
      await store().create({ plan: 'free' });
      expect(await store().findActive(secret)).toBeUndefined();
    });

    it('does not accept the stored hash in place of the secret', async () => {
      const { secret } = await store().create({ plan: 'free' });
      expect(await store().findActive(hashKey(secret))).toBeUndefined();
    });

    it('finds nothing once the key is revoked, while other keys still work', async () => {
      const revoked = await store().create({ plan: 'free' });
      const kept = await store().create({ plan: 'free' });
      expect(await store().findActive(revoked.secret)).toEqual(revoked.record);
      await store().revoke(revoked.record.id);
      expect(await store().findActive(revoked.secret)).toBeUndefined();
      expect(await store().findActive(kept.secret)).toEqual(kept.record);
    });
  });

  describe('findActive with another instance (the keys tool, a second server) on the same database', () => {
    // SQLite asks the file whether anything was committed before each cached read; PostgreSQL's
    // instances hear of the change through LISTEN/NOTIFY, within milliseconds.
    it(`finds nothing ${engine === 'SQLite' ? 'on the very next lookup' : 'within a second'} once the other instance revokes the key`, async () => {
      const server = store();
      const tool = (await database.openAnother()).keys;
      const { record, secret } = await server.create({ plan: 'pro' });
      expect(await server.findActive(secret)).toEqual(record);
      await tool.revoke(record.id);
      if (engine === 'SQLite') expect(await server.findActive(secret)).toBeUndefined();
      else await expect.poll(() => server.findActive(secret), { timeout: 1_000, interval: 10 }).toBeUndefined();
    });

    it('finds a key the other instance created', async () => {
      const server = store();
      const tool = (await database.openAnother()).keys;
      const other = await server.create({ plan: 'free' });
      expect(await server.findActive(other.secret)).toEqual(other.record);
      const created = await tool.create({ plan: 'business' });
      expect(await server.findActive(created.secret)).toEqual(created.record);
    });
  });

  describe('revoke', () => {
    it('records when the key was revoked and keeps the first date on a second revoke', async () => {
      const { record } = await store().create({ plan: 'free' });
      now = START + 60_000;
      expect(await store().revoke(record.id)).toBe(true);
      now = START + 120_000;
      expect(await store().revoke(record.id)).toBe(true);
      expect((await store().list())[0]?.revokedAt).toBe('2026-11-21T09:31:00.000Z');
    });

    it('returns false when no key has the id', async () => {
      await store().create({ plan: 'free' });
      expect(await store().revoke(2)).toBe(false);
    });
  });

  describe('expiry', () => {
    it('refuses a key from its expiry on, at once, on each of three instances', async () => {
      const instances = [store(), (await database.openAnother()).keys, (await database.openAnother()).keys];
      const { secret } = await store().create({ plan: 'pro', expiresAt: new Date(START + 60_000).toISOString() });
      expect(await store().findActive(secret)).toMatchObject({ expiresAt: '2026-11-21T09:31:00.000Z' });
      now = START + 59_999;
      for (const keys of instances) expect(await keys.findActive(secret)).toBeDefined();
      now = START + 60_000;
      for (const keys of instances) expect(await keys.findActive(secret)).toBeUndefined();
    });
  });

  describe('rotate', () => {
    const DAY = 86_400_000;

    it('issues a key with the same plan, limits, label and rate-limit line; on three instances both work until the overlap ends, then only the new one', async () => {
      const instances = [store(), (await database.openAnother()).keys, (await database.openAnother()).keys];
      const old = await store().create({ plan: 'enterprise', perMinute: 7, perDay: 70, label: 'shop' });
      const rotated = defined(await store().rotate(old.record.id, DAY), 'the rotated key');
      expect(rotated.secret).not.toBe(old.secret);
      expect(rotated.record).toMatchObject({
        plan: 'enterprise',
        perMinute: 7,
        perDay: 70,
        label: 'shop',
        expiresAt: null,
        lineage: old.record.lineage,
      });
      expect(rotated.record.id).not.toBe(old.record.id);
      now = START + DAY - 1;
      for (const keys of instances) {
        expect(await keys.findActive(old.secret)).toMatchObject({ expiresAt: new Date(START + DAY).toISOString() });
        expect(await keys.findActive(rotated.secret)).toBeDefined();
      }
      now = START + DAY;
      for (const keys of instances) {
        expect(await keys.findActive(old.secret)).toBeUndefined();
        expect(await keys.findActive(rotated.secret)).toBeDefined();
      }
    });

    it('keeps the first key as the line of every later rotation', async () => {
      const first = await store().create({ plan: 'free' });
      const second = defined(await store().rotate(first.record.id, 0), 'the second key');
      const third = defined(await store().rotate(second.record.id, 0), 'the third key');
      expect(third.record.lineage).toBe(first.record.id);
    });

    it('never lengthens the life of a key that expires before the overlap ends', async () => {
      const old = await store().create({ plan: 'free', expiresAt: new Date(START + 60_000).toISOString() });
      await store().rotate(old.record.id, DAY);
      expect((await store().list())[0]?.expiresAt).toBe(new Date(START + 60_000).toISOString());
    });

    it.each([
      ['no key has the id', async () => 99],
      [
        'the key is revoked',
        async () => {
          const { record } = await store().create({ plan: 'free' });
          await store().revoke(record.id);
          return record.id;
        },
      ],
      [
        'the key has expired',
        async () => {
          const { record } = await store().create({ plan: 'free', expiresAt: new Date(START + 1).toISOString() });
          now = START + 1;
          return record.id;
        },
      ],
    ])('issues nothing when %s', async (_, idOf) => {
      const id = await idOf();
      const before = await store().count();
      expect(await store().rotate(id, DAY)).toBeUndefined();
      expect(await store().count()).toBe(before);
    });
  });

  describe('last use', () => {
    it('records the minute of the last use, here and by another instance, without a write per lookup', async () => {
      const other = (await database.openAnother()).keys;
      const { secret, record } = await store().create({ plan: 'free' });
      now = START + 15_000;
      for (let lookup = 0; lookup < 20; lookup++) await store().findActive(secret);
      await expect.poll(async () => (await store().list())[0]?.lastUsedAt).toBe('2026-11-21T09:30:00.000Z');
      now = START + 2 * 60_000 + 5_000;
      await other.findActive(secret);
      await expect
        .poll(async () => (await store().list()).find((key) => key.id === record.id)?.lastUsedAt)
        .toBe('2026-11-21T09:32:00.000Z');
      // An instance whose clock lags never moves the last use back.
      now = START + 60_000;
      await store().findActive(secret);
      await store().findActive(secret);
      expect((await other.list())[0]?.lastUsedAt).toBe('2026-11-21T09:32:00.000Z');
    });
  });

  describe('list and count', () => {
    it('lists every key, revoked ones included, in creation order, and counts them', async () => {
      const first = await store().create({ plan: 'free', label: 'one' });
      const second = await store().create({ plan: 'enterprise', perMinute: 2, perDay: 3 });
      await store().revoke(first.record.id);

      const listed = await store().list();
      expect(listed.map((key) => [key.id, key.plan, key.revokedAt !== null])).toEqual([
        [1, 'free', true],
        [2, 'enterprise', false],
      ]);
      expect(listed[1]).toEqual(second.record);
      expect(await store().count()).toBe(2);
    });

    it('counts zero in a new database', async () => {
      expect(await store().count()).toBe(0);
    });
  });
}
