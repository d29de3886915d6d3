// Webhooks in PostgreSQL, shared by every instance: the outbox of deliveries written in the
// transaction of the write that caused the event. Each due delivery is claimed by one instance
// (FOR UPDATE SKIP LOCKED) and leased while it is attempted.
import type pg from 'pg';
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
import { withPostgres } from './errors.ts';
import { inPoolTransaction } from './session.ts';

/** A key line with a key that is neither revoked nor expired at the parameter given. */
const lineIsActive = (at: string) => `EXISTS (SELECT 1 FROM api_keys k WHERE coalesce(k.lineage_id, k.id) = e.key_line
  AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${at}))`;

export class PostgresWebhookStore implements WebhookStore {
  readonly #pool: pg.Pool;
  readonly #clock: Clock;
  readonly #deliveryId: DeliveryIdentifier;

  constructor(pool: pg.Pool, clock: Clock, deliveryId: DeliveryIdentifier) {
    this.#pool = pool;
    this.#clock = clock;
    this.#deliveryId = deliveryId;
  }

  /**
   * Records the event of a write on `db`, the write's transaction: one pending delivery per
   * subscribed endpoint of an active line; a removed endpoint's deliveries go with it.
   */
  async record(db: pg.Pool | pg.PoolClient, collection: Collection, change: WriteKind, item: Item) {
    if (collection.name === ENDPOINTS_TABLE && change === 'deleted')
      await withPostgres(() => db.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [item.id]));
    // The contract's webhooks declare which writes of the collection send an event.
    const type = collection.events[change];
    if (type === undefined) return;
    const now = this.#clock.now();
    const at = new Date(now).toISOString();
    const { rows } = await withPostgres(() =>
      db.query<{ id: string }>(
        `SELECT e.id FROM webhook_endpoints e WHERE e.events ? $1 AND ${lineIsActive('$2::timestamptz')}`,
        [type, at],
      ),
    );
    if (rows.length === 0) return;
    const body = JSON.stringify({ type, timestamp: at, data: item });
    await withPostgres(() =>
      db.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, type, body, status, next_attempt_at, created_at)
          SELECT d.id, d.endpoint_id, $3, $4, 'pending', $5, $6 FROM unnest($1::text[], $2::text[]) AS d (id, endpoint_id)`,
        [rows.map(() => this.#deliveryId()), rows.map((row) => row.id), type, body, now, at],
      ),
    );
  }

  async claimDue(now: number, limit: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    const at = new Date(now).toISOString();
    return inPoolTransaction(this.#pool, async (client) => {
      // The endpoints of a revoked or expired key's line receive nothing more.
      await client.query(
        `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the key line has no active key'
          WHERE status = 'pending' AND next_attempt_at <= $1 AND endpoint_id IN
            (SELECT e.id FROM webhook_endpoints e WHERE NOT ${lineIsActive('$2::timestamptz')})`,
        [now, at],
      );
      // SKIP LOCKED: a delivery another instance is claiming right now is left to it.
      const { rows } = await client.query<ClaimedDelivery>(
        `WITH due AS (
            SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
            ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
          UPDATE webhook_deliveries d SET next_attempt_at = $3 FROM due, webhook_endpoints e
            WHERE d.id = due.id AND e.id = d.endpoint_id
          RETURNING d.id, d.endpoint_id AS "endpointId", e.url, e.secret, d.type, d.body, d.attempts`,
        [now, limit, leaseUntil],
      );
      return rows;
    });
  }

  async delivered(id: string): Promise<void> {
    await withPostgres(() =>
      this.#pool.query(
        "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, last_error = NULL WHERE id = $1",
        [id],
      ),
    );
  }

  async attemptFailed(id: string, error: string, at: number | undefined): Promise<void> {
    await withPostgres(() =>
      this.#pool.query(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, last_error = $2,
          status = CASE WHEN $3::bigint IS NULL THEN 'failed' ELSE 'pending' END,
          next_attempt_at = coalesce($3::bigint, next_attempt_at) WHERE id = $1`,
        [id, error, at ?? null],
      ),
    );
  }

  async failed(limit: number): Promise<FailedDelivery[]> {
    const { rows } = await withPostgres(() =>
      this.#pool.query<FailedDelivery>(
        `SELECT d.id, d.endpoint_id AS "endpointId", e.url, d.type, d.attempts, d.last_error AS "lastError",
            d.created_at AS "createdAt"
          FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'failed' ORDER BY d.position LIMIT $1`,
        [limit],
      ),
    );
    return rows;
  }

  async redeliver(id: string, now: number): Promise<boolean> {
    const { rowCount } = await withPostgres(() =>
      this.#pool.query(
        "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $2 WHERE id = $1",
        [id, now],
      ),
    );
    return (rowCount ?? 0) > 0;
  }
}
