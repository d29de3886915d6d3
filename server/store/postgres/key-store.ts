import type pg from 'pg';
import type { Clock } from '../../../core/clock.ts';
import { systemClock } from '../../../core/clock.ts';
import type { ApiKeyRecord, KeyStore, NewApiKey } from '../../../core/keys/key-store.ts';
import { hashKey } from '../../keys/api-key.ts';
import { newKeyRow } from '../../keys/new-key.ts';
import { execute, type NamedStatement } from './statements.ts';

const KEY_COLUMNS =
  'id, label, plan, per_minute AS "perMinute", per_day AS "perDay", created_at AS "createdAt", revoked_at AS "revokedAt"';

const KEY_STATEMENTS = {
  insert: {
    name: 'api-keys.insert',
    text: `INSERT INTO api_keys (label, plan, per_minute, per_day, key_hash, created_at)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
  },
  findActive: {
    name: 'api-keys.find-active',
    text: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
  },
  list: { name: 'api-keys.list', text: `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id` },
  // A second revoke keeps the first date: when the key stopped working.
  revoke: { name: 'api-keys.revoke', text: 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2' },
  count: { name: 'api-keys.count', text: 'SELECT count(*) AS count FROM api_keys' },
} as const satisfies Record<string, NamedStatement>;

/** A key as PostgreSQL returns it: its dates are `timestamptz`, which pg reads as Date. */
type KeyRow = Omit<ApiKeyRecord, 'createdAt' | 'revokedAt'> & { createdAt: Date; revokedAt: Date | null };

function recordOf({ createdAt, revokedAt, ...row }: KeyRow): ApiKeyRecord {
  return { ...row, createdAt: createdAt.toISOString(), revokedAt: revokedAt?.toISOString() ?? null };
}

/**
 * API keys in PostgreSQL, stored as SqliteKeyStore stores them (only the SHA-256 of a secret).
 * No read cache: a key revoked with the keys tool must be refused by every instance at once,
 * and only a query asks all of them.
 */
export class PostgresKeyStore implements KeyStore {
  readonly #pool: pg.Pool;
  readonly #clock: Clock;

  constructor(pool: pg.Pool, clock: Clock = systemClock) {
    this.#pool = pool;
    this.#clock = clock;
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
    const { rows } = await execute<KeyRow>(this.#pool, KEY_STATEMENTS.findActive, [hashKey(secret)]);
    const [row] = rows;
    return row && recordOf(row);
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
