import Sqlite, { type Database } from 'better-sqlite3';
import { statement } from './statement-cache.ts';

/**
 * SQLite's own consistency check. `quick` (`PRAGMA quick_check`) reads every page and is fast
 * enough for every start; `full` (`PRAGMA integrity_check`) also checks that each index matches
 * its table. Returns the problems SQLite reports, none when the file is sound.
 */
export function integrityProblems(db: Database, mode: 'quick' | 'full'): string[] {
  const sql = mode === 'quick' ? 'PRAGMA quick_check' : 'PRAGMA integrity_check';
  const problems: string[] = [];
  try {
    // Row by row: on a badly damaged file SQLite reports some problems, then gives up with an
    // error, and the rows before it say where the damage is.
    for (const row of statement<[], string>(db, sql).pluck().iterate()) {
      if (row !== 'ok') problems.push(row);
    }
  } catch (error) {
    if (!(error instanceof Sqlite.SqliteError)) throw error;
    problems.push(`${error.message} (${error.code})`);
  }
  return problems;
}
