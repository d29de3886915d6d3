import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionTables } from '../../../server/storage/collection-tables.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { MIGRATIONS, migrate } from '../../../server/storage/sqlite/migrations.ts';
import { getOrCreateSecret } from '../../../server/storage/sqlite/stored-secret.ts';
import { defined } from '../../support/defined.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

const tempDir = useTempDirs();
const latestVersion = defined(MIGRATIONS.at(-1), 'a migration').version;

describe('openDatabase', () => {
  it('creates the missing folders of the database path', () => {
    const path = join(tempDir(), 'nested', 'deeper', 'store.db');
    openDatabase(path).close();
    expect(existsSync(path)).toBe(true);
  });

  it("accepts :memory: and gives it the full schema: the service's tables and one per collection of the contract", () => {
    const db = openDatabase(':memory:');
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
    const collections = collectionTables(loadContract()).map((table) => table.name);
    expect(tables).toEqual(expect.arrayContaining(['api_keys', 'settings', ...collections]));
    db.close();
  });

  it('uses write-ahead logging with a full sync on every commit', () => {
    const path = join(tempDir(), 'store.db');
    const db = openDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    db.close();
  });

  it('migrates a new file to the latest schema version', () => {
    const db = openDatabase(join(tempDir(), 'store.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    db.close();
  });

  it('reopens a migrated database without migrating again and keeps its data', () => {
    const path = join(tempDir(), 'store.db');
    const first = openDatabase(path);
    first.prepare("INSERT INTO pets (name, category_id, status) VALUES ('Rex', 1, 'available')").run();
    first.close();

    const second = openDatabase(path);
    expect(second.pragma('user_version', { simple: true })).toBe(latestVersion);
    expect(second.prepare('SELECT name FROM pets').pluck().all()).toEqual(['Rex']);
    second.close();
  });

  it('refuses a database written by a newer version of the service', () => {
    const path = join(tempDir(), 'store.db');
    const future = new Sqlite(path);
    future.pragma(`user_version = ${latestVersion + 1}`);
    future.close();
    expect(() => openDatabase(path)).toThrow(/newer than this program knows/);
  });

  it('refuses a value of the wrong type, and leaves the values of a type to the contract', () => {
    const db = openDatabase(':memory:');
    const insert = db.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
    expect(() => insert.run(Buffer.from('Rex'), 1, 'sold')).toThrow(/cannot store BLOB/);
    // The request validator checks the status against the contract's enum; a status the contract
    // adds in a later version needs no migration.
    expect(() => insert.run('Rex', 1, 'reserved')).not.toThrow();
    db.close();
  });

  it('stores a key of any plan and leaves plans to the contract, keeping the keys, their ids and the highest id of an older database', () => {
    const path = join(tempDir(), 'store.db');
    const old = new Sqlite(path);
    migrate(old, MIGRATIONS.slice(0, 4));
    const insert = old.prepare(
      "INSERT INTO api_keys (plan, per_minute, per_day, key_hash, created_at) VALUES (?, ?, ?, ?, '2026-11-21T00:00:00.000Z')",
    );
    insert.run('free', null, null, 'hash-1');
    insert.run('enterprise', 5, 50, 'hash-2');
    old.prepare('DELETE FROM api_keys WHERE id = 2').run();
    old.close();

    const db = openDatabase(path);
    expect(db.prepare('SELECT id, plan FROM api_keys').all()).toEqual([{ id: 1, plan: 'free' }]);
    // A plan the contract adds later, with limits of its own, needs no migration.
    const added = db
      .prepare(
        "INSERT INTO api_keys (plan, per_minute, per_day, key_hash, created_at) VALUES ('startup', 10, 100, 'hash-3', '') RETURNING id",
      )
      .pluck()
      .get();
    expect(added).toBe(3);
    db.close();
  });

  it('keeps every pet, its id and the highest id ever given when it brings a 1.0.0 database up to date', () => {
    const path = join(tempDir(), 'store.db');
    const old = new Sqlite(path);
    migrate(old, MIGRATIONS.slice(0, 1));
    const insert = old.prepare("INSERT INTO pets (name, category_id, status) VALUES (?, 1, 'sold')");
    for (const name of ['Rex', 'Tom', 'Kit']) insert.run(name);
    old.prepare('DELETE FROM pets WHERE id = 3').run();
    old.close();

    const db = openDatabase(path);
    expect(db.prepare('SELECT id, name FROM pets ORDER BY id').all()).toEqual([
      { id: 1, name: 'Rex' },
      { id: 2, name: 'Tom' },
    ]);
    expect(
      db.prepare("INSERT INTO pets (name, category_id, status) VALUES ('New', 1, 'sold') RETURNING id").pluck().get(),
    ).toBe(4);
    db.close();
  });
});

describe('migrate', () => {
  const steps = [
    { version: 1, sql: 'CREATE TABLE one (x INTEGER)' },
    { version: 2, sql: 'CREATE TABLE two (x INTEGER)' },
  ];

  it('runs only the migrations the database has not run yet, in order', () => {
    const db = new Sqlite(':memory:');
    migrate(db, steps.slice(0, 1));
    db.prepare('INSERT INTO one VALUES (1)').run();

    migrate(db, steps);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT x FROM one').pluck().all()).toEqual([1]);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'two'").pluck().get()).toBe('two');
    db.close();
  });

  it('leaves the database at its previous version when a migration fails', () => {
    const db = new Sqlite(':memory:');
    migrate(db, steps.slice(0, 1));
    expect(() => migrate(db, [...steps, { version: 3, sql: 'CREATE TABLE broken (' }])).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'two'").pluck().get()).toBeUndefined();
    db.close();
  });
});

describe('getOrCreateSecret', () => {
  it('creates a 32-byte random secret once and returns the same one after reopening', () => {
    const path = join(tempDir(), 'store.db');
    const first = openDatabase(path);
    const secret = getOrCreateSecret(first, 'cursor');
    expect(secret).toHaveLength(32);
    expect(getOrCreateSecret(first, 'cursor')).toEqual(secret);
    first.close();

    const second = openDatabase(path);
    expect(getOrCreateSecret(second, 'cursor')).toEqual(secret);
    second.close();
  });

  it('gives different names and different databases different secrets', () => {
    const one = openDatabase(':memory:');
    const other = openDatabase(':memory:');
    const secret = getOrCreateSecret(one, 'cursor');
    expect(getOrCreateSecret(one, 'another')).not.toEqual(secret);
    expect(getOrCreateSecret(other, 'cursor')).not.toEqual(secret);
    one.close();
    other.close();
  });
});
