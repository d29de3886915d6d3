import { existsSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import { UsageError } from '../../../core/errors.ts';
import type { Database } from '../../storage/sqlite/database.ts';

/**
 * Opens the database at `path` read-only, refusing when there is none: opening a missing path
 * read-write would create an empty database and report on that instead. A read-only connection
 * also cannot change the file, and in WAL mode it never blocks the server's writes.
 */
export function openExistingReadOnly(path: string): Database {
  if (!existsSync(path))
    throw new UsageError(`there is no database at ${path}; set DATABASE_PATH to the database file.`);
  return new Sqlite(path, { readonly: true, fileMustExist: true });
}
