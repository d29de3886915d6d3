// Webhooks in SQLite: the endpoints of each key line, and the outbox of deliveries written in the
// transaction (the group commit) of the create that caused the event, so an event exists if and
// only if its create committed.
import type { Database } from 'better-sqlite3';
import type { Collection, WriteKind } from '../../../contract/collections.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Item } from '../../../core/collections/store.ts';
import { ApiError } from '../../../core/errors.ts';
import type { CreateOnceOutcome, CreatesOnce, IdempotencyClaim, KeptAnswer } from '../../../core/idempotency/store.ts';
import type {
  ClaimedDelivery,
  EndpointPage,
  FailedDelivery,
  RegisteredEndpoint,
  WebhookEndpoint,
  WebhookIdentifiers,
  WebhookStore,
} from '../webhooks.ts';
import { withSqlite } from './errors.ts';
import type { SqliteIdempotencyStore } from './idempotency.ts';
import { statement } from './statement-cache.ts';

interface EndpointRow {
  position: number;
  id: string;
  url: string;
  events: string;
  description: string | null;
  created_at: string;
}

/** A key line with a key that is neither revoked nor expired at `?` (ISO 8601). */
const LINE_IS_ACTIVE = `EXISTS (SELECT 1 FROM api_keys k WHERE coalesce(k.lineage_id, k.id) = e.key_line
  AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?))`;

function endpointOf(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEndpoint['events'],
    ...(row.description !== null && { description: row.description }),
    createdAt: row.created_at,
  };
}

export class SqliteWebhookStore implements WebhookStore {
  readonly #db: Database;
  readonly #idempotency: SqliteIdempotencyStore;
  readonly #clock: Clock;
  readonly #ids: WebhookIdentifiers;

  constructor(db: Database, idempotency: SqliteIdempotencyStore, clock: Clock, ids: WebhookIdentifiers) {
    this.#db = db;
    this.#idempotency = idempotency;
    this.#clock = clock;
    this.#ids = ids;
  }

  /**
   * Records the event of a write to a collection: one pending delivery per endpoint subscribed to
   * its type, whose key line is active. To be called inside the write's transaction (the group
   * commit's), so the deliveries commit with the write or not at all.
   */
  recordNow(collection: Collection, change: WriteKind, item: Item): void {
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
    for (const endpoint of endpoints) insert.run(this.#ids.delivery(), endpoint, type, body, now, at);
  }

  async list(line: number, limit: number, afterPosition: number): Promise<EndpointPage> {
    const rows = withSqlite(() =>
      statement<[number, number, number], EndpointRow>(
        this.#db,
        'SELECT * FROM webhook_endpoints WHERE key_line = ? AND position > ? ORDER BY position LIMIT ?',
      ).all(line, afterPosition, limit + 1),
    );
    const page = rows.slice(0, limit);
    return { items: page.map(endpointOf), lastPosition: page.at(-1)?.position, hasMore: rows.length > limit };
  }

  endpointsOf(line: number, limit: number): CreatesOnce<RegisteredEndpoint> {
    const register = (given: Omit<RegisteredEndpoint, 'id'>): RegisteredEndpoint => {
      const fields = { id: this.#ids.endpoint(), ...given };
      const count = statement<[number], number>(this.#db, 'SELECT count(*) FROM webhook_endpoints WHERE key_line = ?')
        .pluck()
        .get(line);
      if ((count ?? 0) >= limit) {
        throw new ApiError(
          409,
          'endpoint_limit_reached',
          `This API key's line has ${limit} webhook endpoints, the most it may have; delete one before registering another.`,
        );
      }
      statement(
        this.#db,
        `INSERT INTO webhook_endpoints (id, key_line, url, events, description, secret, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        fields.id,
        line,
        fields.url,
        JSON.stringify(fields.events),
        fields.description ?? null,
        fields.secret,
        fields.createdAt,
      );
      return fields;
    };
    return {
      create: async (fields) => withSqlite(() => this.#db.transaction(() => register(fields)).immediate()),
      createOnce: async (
        fields,
        claim: IdempotencyClaim,
        answerOf: (item: RegisteredEndpoint) => KeptAnswer,
      ): Promise<CreateOnceOutcome<RegisteredEndpoint>> =>
        withSqlite(() =>
          this.#db
            .transaction((): CreateOnceOutcome<RegisteredEndpoint> => {
              const kept = this.#idempotency.findNow(claim);
              if (kept) return { kept };
              const created = register(fields);
              this.#idempotency.recordNow(claim, answerOf(created));
              return { created };
            })
            .immediate(),
        ),
    };
  }

  async get(line: number, id: string): Promise<WebhookEndpoint | undefined> {
    const row = withSqlite(() =>
      statement<[number, string], EndpointRow>(
        this.#db,
        'SELECT * FROM webhook_endpoints WHERE key_line = ? AND id = ?',
      ).get(line, id),
    );
    return row && endpointOf(row);
  }

  async delete(line: number, id: string): Promise<boolean> {
    return withSqlite(() =>
      this.#db
        .transaction(() => {
          const { changes } = statement(this.#db, 'DELETE FROM webhook_endpoints WHERE key_line = ? AND id = ?').run(
            line,
            id,
          );
          if (changes === 0) return false;
          statement(this.#db, 'DELETE FROM webhook_deliveries WHERE endpoint_id = ?').run(id);
          return true;
        })
        .immediate(),
    );
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
