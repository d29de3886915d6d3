// The benches' data, written fast: pets by one SQL statement (one transaction, no HTTP and no
// round trip per pet), so a million pets take seconds; and an API key whose limits no load reaches.
import pg from 'pg';
import { openPostgresStorage } from '../server/storage/postgres/storage.ts';
import { openDatabase } from '../server/storage/sqlite/database.ts';
import { SqliteKeyStore } from '../server/storage/sqlite/key-store.ts';

const BENCH_KEY = { plan: 'enterprise', perMinute: 100_000_000, perDay: 1_000_000_000, label: 'bench' } as const;

/**
 * Pet number i: name `Pet i`, category i % 7 + 1 and, of every 10 pets, 5 available, 2 pending
 * and 3 sold, spread evenly, so `status=sold` matches 30 % at every size. One expression for
 * both engines, so that their tables hold the same rows.
 */
const PET_VALUES = `'Pet ' || i, i % 7 + 1,
  CASE WHEN i % 10 < 5 THEN 'available' WHEN i % 10 < 7 THEN 'pending' ELSE 'sold' END`;

/** Creates (or migrates) the SQLite database at `path` and adds the bench's key; returns its secret. */
export async function sqliteKey(path: string): Promise<string> {
  const db = openDatabase(path);
  try {
    return (await new SqliteKeyStore(db).create(BENCH_KEY)).secret;
  } finally {
    db.close();
  }
}

/** Adds pets to the SQLite database at `path` until it holds `total`, in one statement. */
export function fillSqlite(path: string, total: number): void {
  const db = openDatabase(path);
  try {
    const count = db.prepare<[], number>('SELECT count(*) FROM pets').pluck().get() ?? 0;
    // CAST: better-sqlite3 binds a JavaScript number as a REAL, which would name pet 1 `Pet 1.0`.
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO pets (name, category_id, status) SELECT ${PET_VALUES} FROM n`,
    ).run(count + 1, total);
  } finally {
    // Closing checkpoints the WAL, so the server starts on a compact database file.
    db.close();
  }
}

/** Migrates the PostgreSQL database at `url` and adds the bench's key; returns its secret. */
export async function postgresKey(url: string): Promise<string> {
  const storage = await openPostgresStorage(url);
  try {
    return (await storage.keys.create(BENCH_KEY)).secret;
  } finally {
    await storage.close();
  }
}

/** Adds pets to the PostgreSQL database at `url` until it holds `total`, in one statement. */
export async function fillPostgres(url: string, total: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM pets');
    await client.query(
      `INSERT INTO pets (name, category_id, status) SELECT ${PET_VALUES} FROM generate_series($1::bigint, $2::bigint) AS i`,
      [Number(rows[0]?.count ?? 0) + 1, total],
    );
    // Fresh statistics, as autovacuum would gather them a little later on a real database.
    await client.query('ANALYZE pets');
  } finally {
    await client.end();
  }
}
