// What only SQLite shows: what its files hold. The behaviour both engines share is in
// key-store.test.ts, which runs on SQLite too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../../../server/keys/api-key.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../../../server/storage/sqlite/key-store.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();

describe('SqliteKeyStore', () => {
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
