import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import Sqlite from 'better-sqlite3';
import { loadContract } from '../../../contract/bundled.ts';
import type { Contract } from '../../../contract/contract.ts';
import { syncSqliteCollections } from './collections.ts';
import { migrate } from './migrations.ts';

export type { Database } from 'better-sqlite3';

const IN_MEMORY = ':memory:';

/**
 * Opens (creating it and its folder if needed) and migrates the service's SQLite database, with a
 * table for each of the contract's collections.
 */
export function openDatabase(path: string, contract: Contract = loadContract()): Database {
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
    syncSqliteCollections(db, contract);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
