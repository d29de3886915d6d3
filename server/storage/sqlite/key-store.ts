import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '../../../core/clock.ts';
import { systemClock } from '../../../core/clock.ts';
import type { ApiKeyRecord, KeyStore, NewApiKey } from '../../../core/keys/key-store.ts';
import { hashKey } from '../../keys/api-key.ts';
import { LastUseRecorder } from '../../keys/last-use.ts';
import { isExpired, type NewKeyColumns, newKeyRow, successorOf } from '../../keys/new-key.ts';
import { ReadCache } from '../read-cache.ts';
import { changeDetector } from './change-detector.ts';
import { withSqlite } from './errors.ts';

/** Every request looks its key up; the active keys of a deployment fit in memory many times over. */
const CACHED_KEYS = 10_000;

const KEY_COLUMNS =
  'id, label, plan, per_minute AS perMinute, per_day AS perDay, created_at AS createdAt, revoked_at AS revokedAt, ' +
  'expires_at AS expiresAt, last_used_at AS lastUsedAt, coalesce(lineage_id, id) AS lineage';

export class SqliteKeyStore implements KeyStore {
  readonly #clock: Clock;
  readonly #insert: Statement<NewKeyColumns, ApiKeyRecord>;
  readonly #findActive: Statement<[string], ApiKeyRecord>;
  readonly #list: Statement<[], ApiKeyRecord>;
  readonly #revoke: Statement<[string, number]>;
  readonly #count: Statement<[], number>;
  readonly #active: ReadCache<ApiKeyRecord>;
  readonly #lastUse: LastUseRecorder;
  readonly #rotate: (id: number, overlapMs: number) => { record: ApiKeyRecord; secret: string } | undefined;

  constructor(db: Database, clock: Clock = systemClock) {
    this.#clock = clock;
    this.#insert = db.prepare(
      `INSERT INTO api_keys (label, plan, per_minute, per_day, key_hash, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
    );
    this.#findActive = db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`);
    this.#list = db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`);
    // A second revoke keeps the first date: when the key stopped working.
    this.#revoke = db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?');
    this.#count = db.prepare<[], number>('SELECT count(*) FROM api_keys').pluck();
    // A revocation by the keys tool is a commit by another connection: it empties the cache
    // before the next lookup, so a revoked key is refused at once.
    this.#active = new ReadCache(changeDetector(db), CACHED_KEYS);
    const markUse = db.prepare<[string, number, string]>(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
    );
    this.#lastUse = new LastUseRecorder(async (id, minute) => withSqlite(() => markUse.run(minute, id, minute)));
    const findById = db.prepare<[number], ApiKeyRecord>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ? AND revoked_at IS NULL`,
    );
    const insertRotated = db.prepare<[...NewKeyColumns, number], ApiKeyRecord>(
      `INSERT INTO api_keys (label, plan, per_minute, per_day, key_hash, created_at, expires_at, lineage_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
    );
    // The earlier of the two: an overlap never lengthens the life of a key that expires sooner.
    const expireAt = db.prepare<[string, number, string]>(
      'UPDATE api_keys SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)',
    );
    const rotation = db.transaction((id: number, overlapMs: number) => {
      const old = findById.get(id);
      if (!old || isExpired(old, this.#clock.now())) return undefined;
      const { secret, columns } = newKeyRow(successorOf(old), this.#now());
      const [record] = insertRotated.all(...columns, old.lineage);
      if (!record) throw new Error('SQLite returned no row for a rotated key.');
      const end = new Date(this.#clock.now() + overlapMs).toISOString();
      expireAt.run(end, id, end);
      return { record, secret };
    });
    this.#rotate = (id, overlapMs) => rotation.immediate(id, overlapMs);
  }

  async create(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }> {
    const { secret, columns } = newKeyRow(key, this.#now());
    // `all`, not `get`, so a failed commit throws (see SqlitePetStore.create).
    const [record] = withSqlite(() => this.#insert.all(...columns));
    if (!record) throw new Error('SQLite returned no row for an inserted key.');
    return { record, secret };
  }

  async findActive(secret: string): Promise<ApiKeyRecord | undefined> {
    // The lookup compares SHA-256 digests, which an attacker cannot steer toward a stored one,
    // so its timing tells nothing about which keys exist.
    // Cached by digest, so no secret stays in memory beyond its request.
    const digest = hashKey(secret);
    const found = withSqlite(() => this.#active.get(digest, () => this.#findActive.get(digest)));
    // Checked on every lookup, cached or not: an expired key is refused from its expiry on.
    const now = this.#clock.now();
    if (!found || isExpired(found, now)) return undefined;
    this.#lastUse.used(found.id, now);
    return found;
  }

  async rotate(id: number, overlapMs: number): Promise<{ record: ApiKeyRecord; secret: string } | undefined> {
    return withSqlite(() => this.#rotate(id, overlapMs));
  }

  async list(): Promise<ApiKeyRecord[]> {
    return withSqlite(() => this.#list.all());
  }

  async revoke(id: number): Promise<boolean> {
    return withSqlite(() => this.#revoke.run(this.#now(), id)).changes > 0;
  }

  async count(): Promise<number> {
    return withSqlite(() => this.#count.get()) ?? 0;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }
}
