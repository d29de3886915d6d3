// Webhooks in PostgreSQL, shared by every instance: the endpoints of each key line, and the
// outbox of deliveries written in the transaction of the create that caused the event. Each due
// delivery is claimed by one instance (FOR UPDATE SKIP LOCKED) and leased while it is attempted.
import type pg from 'pg';
import type { Collection, WriteKind } from '../../../contract/collections.ts';
import type { Clock } from '../../../core/clock.ts';
import type { Item } from '../../../core/collections/store.ts';
import { ApiError } from '../../../core/errors.ts';
import type { CreatesOnce } from '../../../core/idempotency/store.ts';
import type {
  ClaimedDelivery,
  EndpointPage,
  FailedDelivery,
  RegisteredEndpoint,
  WebhookEndpoint,
  WebhookIdentifiers,
  WebhookStore,
} from '../webhooks.ts';
import { withPostgres } from './errors.ts';
import type { PostgresIdempotencyStore } from './idempotency.ts';
import { inPoolTransaction } from './session.ts';

interface EndpointRow {
  position: string;
  id: string;
  url: string;
  events: WebhookEndpoint['events'];
  description: string | null;
  created_at: string;
}

/** A key line with a key that is neither revoked nor expired at the parameter given. */
const lineIsActive = (at: string) => `EXISTS (SELECT 1 FROM api_keys k WHERE coalesce(k.lineage_id, k.id) = e.key_line
  AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${at}))`;

function endpointOf(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    ...(row.description !== null && { description: row.description }),
    createdAt: row.created_at,
  };
}

export class PostgresWebhookStore implements WebhookStore {
  readonly #pool: pg.Pool;
  readonly #idempotency: PostgresIdempotencyStore;
  readonly #clock: Clock;
  readonly #ids: WebhookIdentifiers;

  constructor(pool: pg.Pool, idempotency: PostgresIdempotencyStore, clock: Clock, ids: WebhookIdentifiers) {
    this.#pool = pool;
    this.#idempotency = idempotency;
    this.#clock = clock;
    this.#ids = ids;
  }

  /** Records the event of a write on `db`, the write's transaction: one pending delivery per subscribed endpoint of an active line. */
  async record(db: pg.Pool | pg.PoolClient, collection: Collection, change: WriteKind, item: Item) {
    // The contract's webhooks declare which writes of the collection send an event.
    const type = collection.events[change];
    if (type === undefined) return;
    const now = this.#clock.now();
    const at = new Date(now).toISOString();
    const { rows } = await withPostgres(() =>
      db.query<{ id: string }>(
        `SELECT e.id FROM webhook_endpoints e WHERE $1 = ANY (e.events) AND ${lineIsActive('$2::timestamptz')}`,
        [type, at],
      ),
    );
    if (rows.length === 0) return;
    const body = JSON.stringify({ type, timestamp: at, data: item });
    await withPostgres(() =>
      db.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, type, body, status, next_attempt_at, created_at)
          SELECT d.id, d.endpoint_id, $3, $4, 'pending', $5, $6 FROM unnest($1::text[], $2::text[]) AS d (id, endpoint_id)`,
        [rows.map(() => this.#ids.delivery()), rows.map((row) => row.id), type, body, now, at],
      ),
    );
  }

  async list(line: number, limit: number, afterPosition: number): Promise<EndpointPage> {
    const { rows } = await withPostgres(() =>
      this.#pool.query<EndpointRow>(
        'SELECT * FROM webhook_endpoints WHERE key_line = $1 AND position > $2 ORDER BY position LIMIT $3',
        [line, afterPosition, limit + 1],
      ),
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(endpointOf),
      lastPosition: last && Number(last.position),
      hasMore: rows.length > limit,
    };
  }

  endpointsOf(line: number, limit: number): CreatesOnce<RegisteredEndpoint> {
    const register = async (
      client: pg.PoolClient,
      given: Omit<RegisteredEndpoint, 'id'>,
    ): Promise<RegisteredEndpoint> => {
      const fields = { id: this.#ids.endpoint(), ...given };
      // Registrations of one line wait for each other here, so two at once cannot both be the tenth.
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [WEBHOOK_LINE_LOCK, line]);
      const { rows } = await client.query<{ count: string }>(
        'SELECT count(*) FROM webhook_endpoints WHERE key_line = $1',
        [line],
      );
      if (Number(rows[0]?.count ?? 0) >= limit) {
        throw new ApiError(
          409,
          'endpoint_limit_reached',
          `This API key's line has ${limit} webhook endpoints, the most it may have; delete one before registering another.`,
        );
      }
      await client.query(
        `INSERT INTO webhook_endpoints (id, key_line, url, events, description, secret, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [fields.id, line, fields.url, fields.events, fields.description ?? null, fields.secret, fields.createdAt],
      );
      return fields;
    };
    return {
      create: (fields) => inPoolTransaction(this.#pool, (client) => register(client, fields)),
      createOnce: (fields, claim, answerOf) =>
        this.#idempotency.createOnce(claim, (client) => register(client, fields), answerOf),
    };
  }

  async get(line: number, id: string): Promise<WebhookEndpoint | undefined> {
    const { rows } = await withPostgres(() =>
      this.#pool.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE key_line = $1 AND id = $2', [line, id]),
    );
    return rows[0] && endpointOf(rows[0]);
  }

  async delete(line: number, id: string): Promise<boolean> {
    return inPoolTransaction(this.#pool, async (client) => {
      const { rowCount } = await client.query('DELETE FROM webhook_endpoints WHERE key_line = $1 AND id = $2', [
        line,
        id,
      ]);
      if (!rowCount) return false;
      await client.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
      return true;
    });
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

/** The advisory lock space of webhook registrations (the line is the second key); this service's own number. */
const WEBHOOK_LINE_LOCK = 0x7768_6b73;
