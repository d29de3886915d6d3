import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import type { Clock } from '../../../core/clock.ts';
import { systemClock } from '../../../core/clock.ts';
import type { ApiKeyRecord, KeyStore, NewApiKey } from '../../../core/keys/key-store.ts';
import { hashKey } from '../../keys/api-key.ts';
import { LastUseRecorder } from '../../keys/last-use.ts';
import { isExpired, newKeyRow, successorOf } from '../../keys/new-key.ts';
import { type Changes, KEY_CHANGES } from './changes.ts';
import { inPoolTransaction } from './session.ts';
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

/** Every request looks its key up; the active keys of a deployment fit in memory many times over. */
const CACHED_KEYS = 10_000;
/**
 * The longest a cached key is trusted without asking PostgreSQL, should a notification be lost
 * without the listening connection noticing (a network that silently drops it).
 */
const CACHED_KEY_TTL_MS = 60_000;

/**
 * API keys in PostgreSQL, stored as SqliteKeyStore stores them (only the SHA-256 of a secret).
 * Active keys are cached by digest while `changes` listens: any change to a key, by this
 * instance, another one or the keys tool, empties the cache of every instance (LISTEN/NOTIFY,
 * within milliseconds), so a request costs no round trip for its key. Expiry needs no
 * notification: each lookup compares the cached expiry with the clock.
 */
export class PostgresKeyStore implements KeyStore {
  readonly #pool: pg.Pool;
  readonly #clock: Clock;
  readonly #lastUse: LastUseRecorder;
  readonly #cache = new LRUCache<string, ApiKeyRecord>({ max: CACHED_KEYS, ttl: CACHED_KEY_TTL_MS });
  readonly #changes: Changes | undefined;
  /** Counts the invalidations, so that a read that raced one is not cached. */
  #generation = 0;

  /** Keys are cached while `changes` listens; without it, nothing is. */
  constructor(pool: pg.Pool, clock: Clock = systemClock, changes?: Changes) {
    this.#pool = pool;
    this.#clock = clock;
    this.#lastUse = new LastUseRecorder((id, minute) => execute(pool, KEY_STATEMENTS.markUse, [minute, id]));
    this.#changes = changes;
    changes?.subscribe(KEY_CHANGES, () => this.#invalidate());
  }

  #invalidate(): void {
    this.#generation += 1;
    this.#cache.clear();
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
    // so its timing tells nothing about which keys exist. Cached by digest, so no secret stays
    // in memory beyond its request; keys that are not found are not cached (a flood of unknown
    // keys would push the known ones out).
    const digest = hashKey(secret);
    const cacheable = this.#changes?.listening === true;
    let record = cacheable ? this.#cache.get(digest) : undefined;
    if (record === undefined) {
      const generation = this.#generation;
      const { rows } = await execute<KeyRow>(this.#pool, KEY_STATEMENTS.findActive, [
        digest,
        new Date(this.#clock.now()).toISOString(),
      ]);
      const [row] = rows;
      if (!row) return undefined;
      record = Object.freeze(recordOf(row));
      if (cacheable && generation === this.#generation && this.#changes?.listening) this.#cache.set(digest, record);
    }
    // Checked on every lookup, cached or not: an expired key is refused from its expiry on.
    const now = this.#clock.now();
    if (isExpired(record, now)) return undefined;
    this.#lastUse.used(record.id, now);
    return record;
  }

  async rotate(id: number, overlapMs: number): Promise<{ record: ApiKeyRecord; secret: string } | undefined> {
    const rotated = await inPoolTransaction(this.#pool, async (client) => {
      const { rows } = await execute<KeyRow>(client, KEY_STATEMENTS.findActiveById, [id, this.#now()]);
      const [row] = rows;
      if (!row) return undefined;
      const old = recordOf(row);
      const { secret, columns } = newKeyRow(successorOf(old), this.#now());
      const inserted = await execute<KeyRow>(client, KEY_STATEMENTS.insertRotated, [...columns, old.lineage]);
      const [created] = inserted.rows;
      if (!created) throw new Error('PostgreSQL returned no row for a rotated key.');
      await execute(client, KEY_STATEMENTS.expireAt, [new Date(this.#clock.now() + overlapMs).toISOString(), id]);
      return { record: recordOf(created), secret };
    });
    // This instance refuses the old key's new expiry at once, before its notification arrives.
    if (rotated) this.#invalidate();
    return rotated;
  }

  async list(): Promise<ApiKeyRecord[]> {
    const { rows } = await execute<KeyRow>(this.#pool, KEY_STATEMENTS.list, []);
    return rows.map(recordOf);
  }

  async revoke(id: number): Promise<boolean> {
    const { rowCount } = await execute(this.#pool, KEY_STATEMENTS.revoke, [this.#now(), id]);
    this.#invalidate();
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
