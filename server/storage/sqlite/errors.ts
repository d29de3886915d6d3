import Sqlite from 'better-sqlite3';
import { UnavailableError } from '../../../core/errors.ts';

/**
 * SQLite's result codes for a database that cannot do the work right now, as opposed to a
 * mistake in the program (a constraint or an SQL error), which stays a 500.
 */
const UNAVAILABLE: ReadonlyArray<[prefix: string, reason: string]> = [
  ['SQLITE_FULL', 'the disk is full'],
  ['SQLITE_IOERR', 'a read or write of the database file failed'],
  ['SQLITE_BUSY', 'the database is locked by another connection'],
  ['SQLITE_LOCKED', 'the database is locked by another connection'],
  ['SQLITE_READONLY', 'the database file cannot be written'],
  ['SQLITE_CANTOPEN', 'the database file cannot be opened'],
  ['SQLITE_NOMEM', 'SQLite ran out of memory'],
  ['SQLITE_PROTOCOL', 'the database lock protocol failed'],
  ['SQLITE_CORRUPT', 'the database file is damaged'],
  ['SQLITE_NOTADB', 'the database file is damaged'],
];

/** Runs `work`, turning SQLite's failures of the environment into `UnavailableError`. */
export function withSqlite<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof Sqlite.SqliteError) {
      const match = UNAVAILABLE.find(([prefix]) => error.code.startsWith(prefix));
      if (match) throw new UnavailableError('storage', `${match[1]} (${error.code})`, { cause: error });
    }
    throw error;
  }
}
