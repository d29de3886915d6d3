import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDevelopmentKey } from '../../../server/keys/development-key.ts';
import type { Database } from '../../../server/storage/sqlite/database.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { defined } from '../../support/defined.ts';

let db: Database;
let store: SqliteKeyStore;
let printed: string[];
let shown: string[];
const print = (line: string) => printed.push(line);
const show = (line: string) => shown.push(line);

beforeEach(() => {
  db = openDatabase(':memory:');
  store = new SqliteKeyStore(db);
  printed = [];
  shown = [];
});
afterEach(() => db.close());

describe('ensureDevelopmentKey', () => {
  it('creates one working free-plan key in an empty store and shows it once apart from what it prints, which says where', async () => {
    await ensureDevelopmentKey(store, print, show);

    expect(printed).toEqual([expect.stringMatching(/created.*stderr/i)]);
    expect(shown).toHaveLength(2);
    const secret = defined(shown[1], 'the key shown');
    const found = await store.findActive(secret);
    expect(found).toMatchObject({ plan: 'free', label: expect.stringMatching(/development/) });
    expect(await store.count()).toBe(1);
  });

  it('does nothing on the next start', async () => {
    await ensureDevelopmentKey(store, print, show);
    printed = [];
    shown = [];
    await ensureDevelopmentKey(store, print, show);
    expect(printed).toEqual([]);
    expect(shown).toEqual([]);
    expect(await store.count()).toBe(1);
  });

  it('does nothing when the only key has been revoked, since the operator manages keys by then', async () => {
    const { record } = await store.create({ plan: 'pro' });
    await store.revoke(record.id);
    await ensureDevelopmentKey(store, print, show);
    expect(printed).toEqual([]);
    expect(shown).toEqual([]);
    expect(await store.count()).toBe(1);
  });
});
