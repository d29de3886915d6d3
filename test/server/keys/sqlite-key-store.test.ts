import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../server/clock.ts';
import type { Database } from '../../../server/database.ts';
import { openDatabase } from '../../../server/database.ts';
import { hashKey } from '../../../server/keys/api-key.ts';
import { InvalidApiKeyError } from '../../../server/keys/plans.ts';
import { SqliteKeyStore } from '../../../server/keys/sqlite-key-store.ts';
import { useTempDirs } from '../storage/temp-dir.ts';

const tempDir = useTempDirs();
const START = Date.parse('2026-11-21T09:30:00.000Z');
let now: number;
const clock: Clock = { now: () => now };
let db: Database;
let store: SqliteKeyStore;

beforeEach(() => {
  now = START;
  db = openDatabase(':memory:');
  store = new SqliteKeyStore(db, clock);
});
afterEach(() => db.close());

describe('SqliteKeyStore.create', () => {
  it('returns the record and a prefixed secret', async () => {
    const { record, secret } = await store.create({ plan: 'pro', label: 'billing' });
    expect(secret).toMatch(/^ask_/);
    expect(record).toEqual({
      id: 1,
      label: 'billing',
      plan: 'pro',
      perMinute: null,
      perDay: null,
      createdAt: '2026-11-21T09:30:00.000Z',
      revokedAt: null,
    });
  });

  it('stores the own limits of an enterprise key', async () => {
    const { record } = await store.create({ plan: 'enterprise', perMinute: 5000, perDay: 1_000_000 });
    expect(record).toMatchObject({ plan: 'enterprise', perMinute: 5000, perDay: 1_000_000, label: null });
  });

  it.each([
    ['an enterprise key without limits', { plan: 'enterprise' as const }],
    ['a free key with limits', { plan: 'free' as const, perMinute: 1, perDay: 1 }],
  ])('rejects %s and stores nothing', async (_, key) => {
    await expect(store.create(key)).rejects.toThrow(InvalidApiKeyError);
    expect(await store.count()).toBe(0);
  });

  it('keeps only the SHA-256 hash of the secret in the database file', async () => {
    const dir = tempDir();
    const fileDb = openDatabase(join(dir, 'keys.db'));
    const { secret } = await new SqliteKeyStore(fileDb).create({ plan: 'free', label: 'scan me' });
    const rows = fileDb.prepare('SELECT * FROM api_keys').all();
    fileDb.close();

    expect(JSON.stringify(rows)).not.toContain(secret);
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)));
    const everything = Buffer.concat(files);
    expect(everything.includes(hashKey(secret))).toBe(true);
    expect(everything.includes(secret)).toBe(false);
    expect(everything.includes(secret.slice('ask_'.length))).toBe(false);
  });
});

describe('SqliteKeyStore.findActive', () => {
  it('finds a key by its secret', async () => {
    const { record, secret } = await store.create({ plan: 'business' });
    expect(await store.findActive(secret)).toEqual(record);
  });

  it.each([
    ['an unknown key of the right shape', 'ask_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['the prefix alone', 'ask_'],
    ['an empty string', ''],
  ])('finds nothing for %s', async (_, secret) => {
    await store.create({ plan: 'free' });
    expect(await store.findActive(secret)).toBeUndefined();
  });

  it('does not accept the stored hash in place of the secret', async () => {
    const { secret } = await store.create({ plan: 'free' });
    expect(await store.findActive(hashKey(secret))).toBeUndefined();
  });

  it('finds nothing once the key is revoked, while other keys still work', async () => {
    const revoked = await store.create({ plan: 'free' });
    const kept = await store.create({ plan: 'free' });
    expect(await store.findActive(revoked.secret)).toEqual(revoked.record);
    await store.revoke(revoked.record.id);
    expect(await store.findActive(revoked.secret)).toBeUndefined();
    expect(await store.findActive(kept.secret)).toEqual(kept.record);
  });
});

describe('SqliteKeyStore.findActive with another process on the same database', () => {
  let serverDb: Database;
  let toolDb: Database;
  let server: SqliteKeyStore;
  let tool: SqliteKeyStore;
  beforeEach(() => {
    const path = join(tempDir(), 'keys.db');
    serverDb = openDatabase(path);
    toolDb = openDatabase(path);
    server = new SqliteKeyStore(serverDb, clock);
    tool = new SqliteKeyStore(toolDb, clock);
  });
  afterEach(() => {
    toolDb.close();
    serverDb.close();
  });

  it('finds nothing on the very next lookup once the keys tool, on its own connection, revokes the key', async () => {
    const { record, secret } = await server.create({ plan: 'pro' });
    expect(await server.findActive(secret)).toEqual(record);
    await tool.revoke(record.id);
    expect(await server.findActive(secret)).toBeUndefined();
  });

  it('finds a key the keys tool created on its own connection', async () => {
    const other = await server.create({ plan: 'free' });
    expect(await server.findActive(other.secret)).toEqual(other.record);
    const created = await tool.create({ plan: 'business' });
    expect(await server.findActive(created.secret)).toEqual(created.record);
  });
});

describe('SqliteKeyStore.revoke', () => {
  it('records when the key was revoked and keeps the first date on a second revoke', async () => {
    const { record } = await store.create({ plan: 'free' });
    now = START + 60_000;
    expect(await store.revoke(record.id)).toBe(true);
    now = START + 120_000;
    expect(await store.revoke(record.id)).toBe(true);
    expect((await store.list())[0]?.revokedAt).toBe('2026-11-21T09:31:00.000Z');
  });

  it('returns false when no key has the id', async () => {
    await store.create({ plan: 'free' });
    expect(await store.revoke(2)).toBe(false);
  });
});

describe('SqliteKeyStore.list and count', () => {
  it('lists every key, revoked ones included, in creation order, and counts them', async () => {
    const first = await store.create({ plan: 'free', label: 'one' });
    const second = await store.create({ plan: 'enterprise', perMinute: 2, perDay: 3 });
    await store.revoke(first.record.id);

    const listed = await store.list();
    expect(listed.map((key) => [key.id, key.plan, key.revokedAt !== null])).toEqual([
      [1, 'free', true],
      [2, 'enterprise', false],
    ]);
    expect(listed[1]).toEqual(second.record);
    expect(await store.count()).toBe(2);
  });

  it('counts zero in a new database', async () => {
    expect(await store.count()).toBe(0);
  });
});
