import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { statement } from './statement-cache.ts';

const SECRET_BYTES = 32;

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
