import type { Database } from 'better-sqlite3';
import { statement } from './statement-cache.ts';

/**
 * The schema, as numbered steps. A database records in `user_version` the last step it has
 * run, so a later version of the service appends steps here and never edits a published one.
 */
export interface Migration {
  version: number;
  sql: string;
}

/**
 * SQLite cannot drop a CHECK: the table is made anew under the definition given (its columns'
 * and constraints' text), its rows copied over with their ids, and the highest id it ever gave
 * kept in `sqlite_sequence`, so that AUTOINCREMENT never hands out an id twice.
 */
function rebuiltTable(table: string, definition: string, columns: readonly string[]): string {
  const rebuilt = `${table}_rebuilt`;
  const list = columns.join(', ');
  return `
      CREATE TABLE ${rebuilt} (
        ${definition}
      ) STRICT;
      INSERT INTO ${rebuilt} (${list}) SELECT ${list} FROM ${table};
      INSERT INTO sqlite_sequence (name, seq)
        SELECT '${rebuilt}', seq FROM sqlite_sequence WHERE name = '${table}'
          AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${rebuilt}');
      UPDATE sqlite_sequence SET seq = max(seq, (SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = '${table}'))
        WHERE name = '${rebuilt}';
      DROP TABLE ${table};
      ALTER TABLE ${rebuilt} RENAME TO ${table};`;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      -- STRICT makes SQLite refuse a value of the wrong type instead of converting it.
      -- AUTOINCREMENT keeps ids of deleted pets from ever being handed out again.
      CREATE TABLE pets (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        category_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
      ) STRICT;
      -- A status-filtered page seeks to (status, afterId) and reads limit rows in id order.
      CREATE INDEX pets_status_id ON pets (status, id);

      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        label TEXT,
        plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
        per_minute INTEGER CHECK (per_minute > 0),
        per_day INTEGER CHECK (per_day > 0),
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        CHECK ((plan = 'enterprise') = (per_minute IS NOT NULL AND per_day IS NOT NULL)),
        CHECK ((per_minute IS NULL) = (per_day IS NULL))
      ) STRICT;

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value BLOB NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    // The collections' tables hold types and presence only; values are the contract's to check
    // (the request validator), so that widening an enum or a range needs no migration. The pets
    // table is rebuilt without its status CHECK, keeping every id and the highest id ever given.
    sql: `
      ${rebuiltTable(
        'pets',
        `id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        category_id INTEGER NOT NULL,
        status TEXT NOT NULL`,
        ['id', 'name', 'category_id', 'status'],
      )}
      CREATE INDEX pets_status_id ON pets (status, id);
    `,
  },
  {
    version: 3,
    // The first answer to each Idempotency-Key of each API key (scope), replayed to its repeats.
    // recorded_at is milliseconds on the service's clock; the index finds the expired ones to sweep.
    sql: `
      CREATE TABLE idempotency_keys (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        location TEXT,
        recorded_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      ) STRICT;
      CREATE INDEX idempotency_keys_recorded_at ON idempotency_keys (recorded_at);
    `,
  },
  {
    version: 4,
    // A key's lifecycle: when it expires, the minute it was last used, and for a key issued by
    // rotating another, the key whose rate-limit windows and bans it shares (null: its own).
    sql: `
      ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
      ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
      ALTER TABLE api_keys ADD COLUMN lineage_id INTEGER;
    `,
  },
  {
    version: 5,
    // Plans are the contract's (`x-rate-limits`), checked when a key is created: the table is
    // rebuilt without the plan list and the rule tying limits to one plan, as the second step did
    // for the status enum, keeping every id and the highest id ever given.
    sql: rebuiltTable(
      'api_keys',
      `id INTEGER PRIMARY KEY AUTOINCREMENT,
        label TEXT,
        plan TEXT NOT NULL,
        per_minute INTEGER CHECK (per_minute > 0),
        per_day INTEGER CHECK (per_day > 0),
        key_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        expires_at TEXT,
        last_used_at TEXT,
        lineage_id INTEGER,
        CHECK ((per_minute IS NULL) = (per_day IS NULL))`,
      [
        'id',
        'label',
        'plan',
        'per_minute',
        'per_day',
        'key_hash',
        'created_at',
        'revoked_at',
        'expires_at',
        'last_used_at',
        'lineage_id',
      ],
    ),
  },
  {
    version: 6,
    // Webhooks: the endpoints of each key line, and the outbox of deliveries, one per event and
    // subscribed endpoint, written in the transaction of the create that caused the event.
    // `position` orders an endpoint list and its cursors; `next_attempt_at` (Unix milliseconds)
    // is when a pending delivery is due, or leased until while an attempt runs.
    sql: `
      CREATE TABLE webhook_endpoints (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        key_line INTEGER NOT NULL,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        description TEXT,
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhook_endpoints_key_line ON webhook_endpoints (key_line, position);
      CREATE TABLE webhook_deliveries (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        endpoint_id TEXT NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);
    `,
  },
  {
    version: 7,
    // Webhook endpoints are a collection of the contract's (`/webhook-endpoints`): the collection
    // layer keeps their table, whose columns are already the ones it makes, and indexes a key
    // line's pages as webhook_endpoints_key_line_position, the same columns as this index.
    sql: 'DROP INDEX webhook_endpoints_key_line;',
  },
];

/**
 * Brings the database up to the last migration. Runs in one IMMEDIATE transaction so that two
 * processes starting on the same file (the server and the keys tool) cannot both migrate.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): void {
  const latest = migrations.at(-1)?.version ?? 0;
  db.transaction(() => {
    const current = statement<[], number>(db, 'PRAGMA user_version').pluck().get() ?? 0;
    if (current > latest) {
      throw new Error(
        `The database is at schema version ${current}, newer than this program knows (${latest}); run a newer version of the service.`,
      );
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      db.exec(`PRAGMA user_version = ${migration.version}`);
    }
  }).immediate();
}
