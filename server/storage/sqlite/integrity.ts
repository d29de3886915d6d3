import Sqlite, { type Database } from 'better-sqlite3';
import { statement } from './statement-cache.ts';

/**
 * SQLite's own consistency check. `quick` (`PRAGMA quick_check`) reads every page and is fast
 * enough for every start; `full` (`PRAGMA integrity_check`) also checks that each index matches
 * its table. Returns the problems SQLite reports, none when the file is sound. On some damage
 * SQLite gives up with an error instead of rows; that error is then the problem. (All rows at
 * once: better-sqlite3 12 aborts Node 24 when it collects a row iterator.)
 */
export function integrityProblems(db: Database, mode: 'quick' | 'full'): string[] {
  const sql = mode === 'quick' ? 'PRAGMA quick_check' : 'PRAGMA integrity_check';
  try {
    return statement<[], string>(db, sql)
      .pluck()
      .all()
      .filter((row) => row !== 'ok');
  } catch (error) {
    if (!(error instanceof Sqlite.SqliteError)) throw error;
    return [`${error.message} (${error.code})`];
  }
}
