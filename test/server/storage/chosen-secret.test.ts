import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../core/errors.ts';
import { type Database, openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';

// NewApiKey.secret: a key with a known value, for fixtures such as the stateful mock's.
describe('SqliteKeyStore.create with a chosen secret', () => {
  let db: Database;
  let store: SqliteKeyStore;
  beforeEach(() => {
    db = openDatabase(':memory:');
    store = new SqliteKeyStore(db);
  });
  afterEach(() => db.close());

  it('stores the chosen secret, which then authenticates', async () => {
    const secret = 'ask_development_stateful_mock_key_0000000000';

    const created = await store.create({ plan: 'free', secret });

    expect(created.secret).toBe(secret);
    expect(await store.findActive(secret)).toEqual(created.record);
  });

  it('still makes a random secret when none is chosen', async () => {
    const [first, second] = [await store.create({ plan: 'free' }), await store.create({ plan: 'free' })];

    expect(first.secret).not.toBe(second.secret);
  });

  it.each([
    ['without the ask_ prefix', 'development_stateful_mock_key_0000000000'],
    ['too short', 'ask_short'],
    ['with a character a bearer token cannot carry', 'ask_development key 000000000000'],
  ])('refuses a chosen secret %s', async (_case, secret) => {
    await expect(store.create({ plan: 'free', secret })).rejects.toThrow(UsageError);
    expect(await store.count()).toBe(0);
  });
});
