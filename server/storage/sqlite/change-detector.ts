import type { Database } from 'better-sqlite3';
import { statement } from './statement-cache.ts';

/**
 * Answers whether anything may have been committed to the database since its previous call:
 * by this connection (`total_changes()`), or by any other connection, in this process or another
 * (the keys tool, a second server) (`PRAGMA data_version`). Both are under a microsecond, so a
 * cache that asks before every read is exactly as fresh as reading SQLite itself.
 */
export function changeDetector(db: Database): () => boolean {
  const dataVersion = statement<[], number>(db, 'PRAGMA data_version').pluck();
  const ownChanges = statement<[], number>(db, 'SELECT total_changes()').pluck();
  let seenVersion: number | undefined;
  let seenChanges: number | undefined;
  return () => {
    const version = dataVersion.get();
    const changes = ownChanges.get();
    const changed = version !== seenVersion || changes !== seenChanges;
    seenVersion = version;
    seenChanges = changes;
    return changed;
  };
}
