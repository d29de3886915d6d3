import type pg from 'pg';
import type { Clock } from '../../../core/clock.ts';
import { systemClock } from '../../../core/clock.ts';
import type { ApiKeyRecord, KeyStore, NewApiKey } from '../../../core/keys/key-store.ts';
import { hashKey } from '../../keys/api-key.ts';
import { LastUseRecorder } from '../../keys/last-use.ts';
import { newKeyRow, successorOf } from '../../keys/new-key.ts';
import { withPostgres } from './errors.ts';
import { execute, type NamedStatement } from './statements.ts';

const KEY_COLUMNS =
  'id, label, plan, per_minute AS "perMinute", per_day AS "perDay", created_at AS "createdAt", revoked_at AS "revokedAt", ' +
  'expires_at AS "expiresAt", last_used_at AS "lastUsedAt", coalesce(lineage_id, id) AS lineage';

const KEY_STATEMENTS = {
  insert: {
    name: 'api-keys.insert',
    text: `INSERT INTO api_keys (label, plan, per_minute, per_day, key_hash, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${KEY_COLUMNS}`,
  },
  // The expiry is compared with the service's clock, passed in, as SQLite's store compares it.
  findActive: {
    name: 'api-keys.find-active',
    text: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > $2)`,
  },
  findActiveById: {
    name: 'api-keys.find-active-by-id',
    text: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1 AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > $2) FOR UPDATE`,
  },
  insertRotated: {
    name: 'api-keys.insert-rotated',
    text: `INSERT INTO api_keys (label, plan, per_minute, per_day, key_hash, created_at, expires_at, lineage_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${KEY_COLUMNS}`,
  },
  // The earlier of the two: an overlap never lengthens the life of a key that expires sooner.
  expireAt: {
    name: 'api-keys.expire-at',
    text: 'UPDATE api_keys SET expires_at = $1 WHERE id = $2 AND (expires_at IS NULL OR expires_at > $1)',
  },
  markUse: {
    name: 'api-keys.mark-use',
    text: 'UPDATE api_keys SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)',
  },
  list: { name: 'api-keys.list', text: `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id` },
  // A second revoke keeps the first date: when the key stopped working.
  revoke: { name: 'api-keys.revoke', text: 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2' },
  count: { name: 'api-keys.count', text: 'SELECT count(*) AS count FROM api_keys' },
} as const satisfies Record<string, NamedStatement>;

/** A key as PostgreSQL returns it: its dates are `timestamptz`, which pg reads as Date. */
type KeyRow = Omit<ApiKeyRecord, 'createdAt' | 'revokedAt' | 'expiresAt' | 'lastUsedAt' | 'lineage'> & {
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** bigint, which pg reads as text. */
  lineage: string | number;
};

function recordOf({ createdAt, revokedAt, expiresAt, lastUsedAt, lineage, ...row }: KeyRow): ApiKeyRecord {
  return {
    ...row,
    createdAt: createdAt.toISOString(),
    revokedAt: revokedAt?.toISOString() ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
    lastUsedAt: lastUsedAt?.toISOString() ?? null,
    lineage: Number(lineage),
  };
}

/**
 * API keys in PostgreSQL, stored as SqliteKeyStore stores them (only the SHA-256 of a secret).
 * No read cache: a key revoked with the keys tool must be refused by every instance at once,
 * and only a query asks all of them.
 */
export class PostgresKeyStore implements KeyStore {
  readonly #pool: pg.Pool;
  readonly #clock: Clock;
  readonly #lastUse: LastUseRecorder;

  constructor(pool: pg.Pool, clock: Clock = systemClock) {
    this.#pool = pool;
    this.#clock = clock;
    this.#lastUse = new LastUseRecorder((id, minute) => execute(pool, KEY_STATEMENTS.markUse, [minute, id]));
  }

  async create(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }> {
    const { secret, columns } = newKeyRow(key, this.#now());
    const { rows } = await execute<KeyRow>(this.#pool, KEY_STATEMENTS.insert, columns);
    const [row] = rows;
    if (!row) throw new Error('PostgreSQL returned no row for an inserted key.');
    return { record: recordOf(row), secret };
  }

  async findActive(secret: string): Promise<ApiKeyRecord | undefined> {
    // The lookup compares SHA-256 digests, which an attacker cannot steer toward a stored one,
    // so its timing tells nothing about which keys exist.
    const now = this.#clock.now();
    const { rows } = await execute<KeyRow>(this.#pool, KEY_STATEMENTS.findActive, [
      hashKey(secret),
      new Date(now).toISOString(),
    ]);
    const [row] = rows;
    if (!row) return undefined;
    const record = recordOf(row);
    this.#lastUse.used(record.id, now);
    return record;
  }

  async rotate(id: number, overlapMs: number): Promise<{ record: ApiKeyRecord; secret: string } | undefined> {
    return withPostgres(async () => {
      const client = await this.#pool.connect();
      let failed: Error | undefined;
      try {
        await client.query('BEGIN');
        const { rows } = await execute<KeyRow>(client, KEY_STATEMENTS.findActiveById, [id, this.#now()]);
        const [row] = rows;
        if (!row) {
          await client.query('ROLLBACK');
          return undefined;
        }
        const old = recordOf(row);
        const { secret, columns } = newKeyRow(successorOf(old), this.#now());
        const inserted = await execute<KeyRow>(client, KEY_STATEMENTS.insertRotated, [...columns, old.lineage]);
        const [created] = inserted.rows;
        if (!created) throw new Error('PostgreSQL returned no row for a rotated key.');
        await execute(client, KEY_STATEMENTS.expireAt, [new Date(this.#clock.now() + overlapMs).toISOString(), id]);
        await client.query('COMMIT');
        return { record: recordOf(created), secret };
      } catch (error) {
        failed = error as Error;
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release(failed);
      }
    });
  }

  async list(): Promise<ApiKeyRecord[]> {
    const { rows } = await execute<KeyRow>(this.#pool, KEY_STATEMENTS.list, []);
    return rows.map(recordOf);
  }

  async revoke(id: number): Promise<boolean> {
    const { rowCount } = await execute(this.#pool, KEY_STATEMENTS.revoke, [this.#now(), id]);
    return (rowCount ?? 0) > 0;
  }

  async count(): Promise<number> {
    const { rows } = await execute<{ count: number }>(this.#pool, KEY_STATEMENTS.count, []);
    return rows[0]?.count ?? 0;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }
}
