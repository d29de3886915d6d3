import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { execute } from './statements.ts';

const SECRET_BYTES = 32;

const SECRET_STATEMENTS = {
  // Instances starting at once each offer a secret; the first stored wins and all read it.
  insert: {
    name: 'settings.insert-if-absent',
    text: 'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
  },
  get: { name: 'settings.get', text: 'SELECT value FROM settings WHERE key = $1' },
} as const;

/**
 * A random secret kept in the database under `name`, created on first use; the same value for
 * every instance on this database, so what one signs another accepts.
 */
export async function getOrCreatePostgresSecret(pool: pg.Pool, name: string): Promise<Buffer> {
  await execute(pool, SECRET_STATEMENTS.insert, [name, randomBytes(SECRET_BYTES)]);
  const { rows } = await execute<{ value: Buffer }>(pool, SECRET_STATEMENTS.get, [name]);
  const [row] = rows;
  if (!row) throw new Error(`The setting ${name} could not be stored.`);
  return row.value;
}
