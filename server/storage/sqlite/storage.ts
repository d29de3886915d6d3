import { loadContract } from '../../../contract/bundled.ts';
import type { Contract } from '../../../contract/contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { systemClock } from '../../../core/clock.ts';
import { newDeliveryId } from '../../events/identifiers.ts';
import { CURSOR_SECRET_SETTING, type Storage, type StorageObserver } from '../storage.ts';
import { requestBegins } from './change-detector.ts';
import { sqliteCollectionStores } from './collections.ts';
import { type Database, openDatabase } from './database.ts';
import { withSqlite } from './errors.ts';
import { databaseFileCheck } from './file-identity.ts';
import { SqliteIdempotencyStore } from './idempotency.ts';
import { SqliteKeyStore } from './key-store.ts';
import { statement } from './statement-cache.ts';
import { getOrCreateSecret } from './stored-secret.ts';
import { SqliteWebhookStore } from './webhooks.ts';

/** The settings row the readiness probe writes and deletes in one transaction. */
const READINESS_PROBE = 'readiness_probe';

/** Storage in the SQLite file at `path` (created and migrated if needed), for one instance of the service. */
export function openSqliteStorage(
  path: string,
  clock: Clock = systemClock,
  contract: Contract = loadContract(),
  observer: StorageObserver = {},
): Storage {
  const db = openDatabase(path, contract);
  try {
    return sqliteStorage(db, path, clock, contract, observer);
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Storage in an open SQLite database (see openDatabase), which it closes with itself: for the
 * tests that also look into the database beside the service.
 */
export function sqliteStorage(
  db: Database,
  path: string,
  clock: Clock,
  contract: Contract,
  observer: StorageObserver = {},
): Storage {
  const idempotency = new SqliteIdempotencyStore(db);
  const checkFile = databaseFileCheck(path);
  const webhooks = new SqliteWebhookStore(db, clock, newDeliveryId);
  return {
    collections: sqliteCollectionStores(db, contract, idempotency, {
      observer,
      checkFile,
      recordWrite: (collection, change, item) => webhooks.recordNow(collection, change, item),
    }),
    idempotency,
    webhooks,
    keys: new SqliteKeyStore(db, clock),
    requestBegins: () => requestBegins(db),
    cursorSecret: getOrCreateSecret(db, CURSOR_SECRET_SETTING),
    async ping() {
      checkFile();
      // Commits a write that leaves nothing behind: on a full disk, or a file that became
      // read-only or unreadable, a read alone would still answer while every write fails.
      withSqlite(() =>
        db
          .transaction(() => {
            statement(db, 'INSERT INTO settings (key, value) VALUES (?, ?)').run(READINESS_PROBE, Buffer.alloc(0));
            statement(db, 'DELETE FROM settings WHERE key = ?').run(READINESS_PROBE);
          })
          .immediate(),
      );
    },
    async close() {
      db.close();
    },
    description: `SQLite at ${path}`,
  };
}
