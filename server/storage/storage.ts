// Where the service keeps its data: one interface, whatever the engine (SQLite in one process,
// PostgreSQL shared by several instances).

import type { CollectionStores } from '../../core/collections/store.ts';
import type { IdempotencyStore } from '../../core/idempotency/store.ts';
import type { KeyStore } from '../../core/keys/key-store.ts';
import type { WebhookStore } from './webhooks.ts';

/** What the storage tells the service's metrics. */
export interface StorageObserver {
  /** The number of creates one SQLite group commit wrote together. */
  groupCommitBatch?(size: number): void;
}

/** The setting that holds the cursor secret, in either engine's `settings` table. */
export const CURSOR_SECRET_SETTING = 'cursor-secret';

export interface Storage {
  /** The contract's collections (`pets`, `store_orders`), each in its table. */
  collections: CollectionStores;
  keys: KeyStore;
  /** The key lines' webhook endpoints and the outbox of their deliveries. */
  webhooks: WebhookStore;
  /**
   * Called as each request begins, so that the request's reads see every commit acknowledged
   * before it and may share one look at the database; PostgreSQL's caches hear of commits on
   * their own and need no call.
   */
  requestBegins?(): void;
  /** The answers kept under `Idempotency-Key`s; creates record theirs through `collections`. */
  idempotency: IdempotencyStore;
  /** Signs pagination cursors; kept in the database, so every instance and restart accepts them. */
  cursorSecret: Uint8Array;
  /** Resolves when the engine answers a query; rejects with UnavailableError otherwise. */
  ping(): Promise<void>;
  /** Closes the engine's connections; nothing is used after it. */
  close(): Promise<void>;
  /** What the start-up line names: `SQLite at data/animal-store.db`, `PostgreSQL at 127.0.0.1:5432/animals`. */
  description: string;
}
