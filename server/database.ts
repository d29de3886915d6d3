import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { statement } from './store/statement-cache.ts';
import { migrate } from './store/migrations.ts';

export type { Database } from 'better-sqlite3';

const IN_MEMORY = ':memory:';
const SECRET_BYTES = 32;

/** Opens (creating it and its folder if needed) and migrates the service's SQLite database. */
export function openDatabase(path: string): Database {
  if (path !== IN_MEMORY) mkdirSync(dirname(path), { recursive: true });
  const db = new Sqlite(path);
  try {
    // Readers never block the writer and the writer never blocks readers.
    db.exec('PRAGMA journal_mode = WAL');
    // A 201 must survive a crash of the process: in WAL mode NORMAL already guarantees that
    // (a commit is in the operating system's cache before it returns), but not after a power
    // loss or an OS crash. FULL syncs the WAL on every commit, so an acknowledged pet survives
    // those too; the cost, one fsync per write, is small next to an HTTP round trip.
    db.exec('PRAGMA synchronous = FULL');
    // The keys tool may write while the server runs; wait for the lock instead of failing.
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A random secret kept in the database under `name`, created on first use; the same value for
 * every process that opens this database, so what one signs another accepts.
 */
export function getOrCreateSecret(db: Database, name: string): Buffer {
  statement(db, 'INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(name, randomBytes(SECRET_BYTES));
  const row = statement<[string], { value: Buffer }>(db, 'SELECT value FROM settings WHERE key = ?').get(name);
  if (!row) throw new Error(`The setting ${name} could not be stored.`);
  return row.value;
}

export const DEFAULT_DATABASE_PATH = 'data/animal-store.db';

/** `DATABASE_PATH` from the environment, or the default file under data/. */
export function databasePathFrom(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_PATH || DEFAULT_DATABASE_PATH;
}
