// Webhooks in SQLite: the outbox of deliveries written in the transaction (the group commit) of
// the write that caused the event, so an event exists if and only if its write committed.
import type { Database } from 'better-sqlite3';
import type { Collection, WriteKind } from '../../../contract/collections.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Item } from '../../../core/collections/store.ts';
import {
  type ClaimedDelivery,
  type DeliveryIdentifier,
  ENDPOINTS_TABLE,
  type FailedDelivery,
  type WebhookStore,
} from '../webhooks.ts';
import { withSqlite } from './errors.ts';
import { statement } from './statement-cache.ts';

/** A key line with a key that is neither revoked nor expired at `?` (ISO 8601). */
const LINE_IS_ACTIVE = `EXISTS (SELECT 1 FROM api_keys k WHERE coalesce(k.lineage_id, k.id) = e.key_line
  AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?))`;

export class SqliteWebhookStore implements WebhookStore {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #deliveryId: DeliveryIdentifier;

  constructor(db: Database, clock: Clock, deliveryId: DeliveryIdentifier) {
    this.#db = db;
    this.#clock = clock;
    this.#deliveryId = deliveryId;
  }

  /**
   * Records the event of a write to a collection: one pending delivery per endpoint subscribed to
   * its type, whose key line is active; a removed endpoint's deliveries go with it. To be called
   * inside the write's transaction (the group commit's), so they commit with the write or not at all.
   */
  recordNow(collection: Collection, change: WriteKind, item: Item): void {
    if (collection.name === ENDPOINTS_TABLE && change === 'deleted')
      statement(this.#db, 'DELETE FROM webhook_deliveries WHERE endpoint_id = ?').run(item.id);
    // The contract's webhooks declare which writes of the collection send an event.
    const type = collection.events[change];
    if (type === undefined) return;
    const now = this.#clock.now();
    const at = new Date(now).toISOString();
    const endpoints = statement<[string, string], string>(
      this.#db,
      `SELECT e.id FROM webhook_endpoints e
        WHERE EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ?) AND ${LINE_IS_ACTIVE}`,
    )
      .pluck()
      .all(type, at);
    if (endpoints.length === 0) return;
    const body = JSON.stringify({ type, timestamp: at, data: item });
    const insert = statement(
      this.#db,
      `INSERT INTO webhook_deliveries (id, endpoint_id, type, body, status, next_attempt_at, created_at)
        VALUES (?, ?, ?, ?, 'pending', ?, ?)`,
    );
    for (const endpoint of endpoints) insert.run(this.#deliveryId(), endpoint, type, body, now, at);
  }

  async claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    const at = new Date(now).toISOString();
    return withSqlite(() =>
      this.#db
        .transaction(() => {
          // The endpoints of a revoked or expired key's line receive nothing more.
          statement(
            this.#db,
            `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the key line has no active key'
              WHERE status = 'pending' AND next_attempt_at <= ? AND endpoint_id IN
                (SELECT e.id FROM webhook_endpoints e WHERE NOT ${LINE_IS_ACTIVE})`,
          ).run(now, at);
          const due = statement<[number, number], ClaimedDelivery>(
            this.#db,
            `SELECT d.id, d.endpoint_id AS endpointId, e.url, e.secret, d.type, d.body, d.attempts
              FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
              WHERE d.status = 'pending' AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?`,
          ).all(now, limit);
          const lease = statement(this.#db, 'UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?');
          for (const delivery of due) lease.run(leaseUntil, delivery.id);
          return due;
        })
        .immediate(),
    );
  }

  async delivered(id: string): Promise<void> {
    withSqlite(() =>
      statement(
        this.#db,
        "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_error = NULL WHERE id = ?",
      ).run(id),
    );
  }

  async attemptFailed(id: string, error: string, at: number | undefined): Promise<void> {
    withSqlite(() =>
      statement(
        this.#db,
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = ?,
          status = CASE WHEN ? IS NULL THEN 'failed' ELSE 'pending' END,
          next_attempt_at = coalesce(?, next_attempt_at) WHERE id = ?`,
      ).run(error, at ?? null, at ?? null, id),
    );
  }

  async failed(limit: number): Promise<FailedDelivery[]> {
    return withSqlite(() =>
      statement<[number], FailedDelivery>(
        this.#db,
        `SELECT d.id, d.endpoint_id AS endpointId, e.url, d.type, d.attempts, d.last_error AS lastError,
            d.created_at AS createdAt
          FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'failed' ORDER BY d.position LIMIT ?`,
      ).all(limit),
    );
  }

  async redeliver(id: string, now: number): Promise<boolean> {
    return withSqlite(
      () =>
        statement(
          this.#db,
          "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE id = ?",
        ).run(now, id).changes > 0,
    );
  }
}
