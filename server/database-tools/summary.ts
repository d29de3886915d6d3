import type { Database } from '../database.ts';
import { statement } from '../store/statement-cache.ts';

export interface DatabaseSummary {
  schemaVersion: number;
  pets: number;
  keys: number;
}

/** What the database holds, read in one transaction so the numbers belong to one moment. */
export function summarize(db: Database): DatabaseSummary {
  return db.transaction(() => ({
    schemaVersion: statement<[], number>(db, 'PRAGMA user_version').pluck().get() ?? 0,
    pets: statement<[], number>(db, 'SELECT count(*) FROM pets').pluck().get() ?? 0,
    keys: statement<[], number>(db, 'SELECT count(*) FROM api_keys').pluck().get() ?? 0,
  }))();
}

export function describeSummary({ schemaVersion, pets, keys }: DatabaseSummary): string {
  return `schema version ${schemaVersion}, ${pets} ${pets === 1 ? 'pet' : 'pets'}, ${keys} API ${keys === 1 ? 'key' : 'keys'}`;
}
