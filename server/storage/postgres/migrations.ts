import type { Contract } from '../../../contract/contract.ts';
import type { Migration } from '../sqlite/migrations.ts';
import { syncPostgresCollections } from './collections.ts';
import { inTransaction, withSession } from './session.ts';

/**
 * The schema, as numbered steps, like SQLite's (server/storage/sqlite/migrations.ts): a database records
 * in `schema_migrations` each step it has run, so a later version of the service appends steps
 * here and never edits a published one. The tables hold what SQLite's hold, so that db:copy can
 * move a database across.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      -- ALWAYS: an id comes from the sequence, which never hands one out twice, not even the
      -- id of a deleted pet or of a rolled-back insert. Only db:copy overrides it.
      CREATE TABLE pets (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        category_id bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('available', 'pending', 'sold'))
      );
      -- A status-filtered page seeks to (status, afterId) and reads limit rows in id order.
      CREATE INDEX pets_status_id ON pets (status, id);

      CREATE TABLE api_keys (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        label text,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
        per_minute bigint CHECK (per_minute > 0),
        per_day bigint CHECK (per_day > 0),
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        CHECK ((plan = 'enterprise') = (per_minute IS NOT NULL AND per_day IS NOT NULL)),
        CHECK ((per_minute IS NULL) = (per_day IS NULL))
      );

      CREATE TABLE settings (
        key text PRIMARY KEY,
        value bytea NOT NULL
      );
    `,
  },
  {
    version: 2,
    // As SQLite's second step: values are the contract's to check, so widening the status enum
    // needs no migration.
    sql: 'ALTER TABLE pets DROP CONSTRAINT IF EXISTS pets_status_check',
  },
  {
    version: 3,
    // As SQLite's third step: the first answer to each Idempotency-Key of each API key.
    sql: `
      CREATE TABLE idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        status integer NOT NULL,
        body text NOT NULL,
        location text,
        recorded_at bigint NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX idempotency_keys_recorded_at ON idempotency_keys (recorded_at);
    `,
  },
  {
    version: 4,
    // As SQLite's fourth step: a key's expiry, last use and rate-limit line.
    sql: `
      ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
      ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
      ALTER TABLE api_keys ADD COLUMN lineage_id bigint;
    `,
  },
  {
    version: 5,
    // As SQLite's fifth step: plans are the contract's, so the plan list and the rule tying limits
    // to one plan go (the checks PostgreSQL named when the first step created them).
    sql: `
      ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_plan_check;
      ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS api_keys_check;
    `,
  },
  {
    version: 6,
    // Every instance caches the keys it looks up and empties its cache when this channel is
    // notified (server/storage/postgres/key-changes.ts): by every commit that creates, revokes,
    // rotates or re-dates a key, whoever made it (an instance, the keys tool, db:copy, an
    // operator's SQL). Not by the last-use writes, which change nothing a lookup decides on.
    sql: `
      CREATE FUNCTION animal_store_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('animal_store_api_keys', '');
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER api_keys_changed
        AFTER INSERT OR DELETE OR TRUNCATE
           OR UPDATE OF key_hash, plan, per_minute, per_day, revoked_at, expires_at, lineage_id, label
        ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION animal_store_api_keys_changed();
    `,
  },
  {
    version: 7,
    // Webhooks, as SQLite's sixth step: the endpoints of each key line, and the outbox of
    // deliveries written in the transaction of the create that caused the event. Instances claim
    // due deliveries with FOR UPDATE SKIP LOCKED and lease them by moving next_attempt_at.
    sql: `
      CREATE TABLE webhook_endpoints (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        key_line bigint NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        secret text NOT NULL,
        created_at text NOT NULL
      );
      CREATE INDEX webhook_endpoints_key_line ON webhook_endpoints (key_line, position);
      CREATE TABLE webhook_deliveries (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        endpoint_id text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at bigint NOT NULL,
        last_error text,
        created_at text NOT NULL
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);
    `,
  },
  {
    version: 8,
    // Webhook endpoints are a collection of the contract's (`/webhook-endpoints`): the collection
    // layer keeps their table, and stores a field that is a list as jsonb, as it does every JSON
    // field; it indexes a key line's pages as webhook_endpoints_key_line_position.
    sql: `
      ALTER TABLE webhook_endpoints ALTER COLUMN events TYPE jsonb USING to_jsonb(events);
      DROP INDEX webhook_endpoints_key_line;
    `,
  },
];

/**
 * Taken for the migration's transaction, so that instances starting at once on one database
 * migrate one after the other: the next finds the work done. A constant of this service's own;
 * advisory locks of other programs in the same database use other numbers.
 */
const MIGRATION_LOCK = 0x616e_696d_616c;

/**
 * Brings the database at `url` up to the last migration, with a table for each of the contract's
 * collections. All steps run in one transaction:
 * PostgreSQL's DDL is transactional, so a failed step leaves the database as it was.
 */
export async function migratePostgres(
  url: string,
  connectTimeoutMs: number,
  contract: Contract,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<void> {
  const latest = migrations.at(-1)?.version ?? 0;
  await withSession(url, connectTimeoutMs, (client) =>
    inTransaction(client, async () => {
      // A transaction-level lock: released by the commit or the rollback, whatever happens.
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ current: number }>(
        'SELECT coalesce(max(version), 0) AS current FROM schema_migrations',
      );
      const current = rows[0]?.current ?? 0;
      if (current > latest) {
        throw new Error(
          `The database is at schema version ${current}, newer than this program knows (${latest}); run a newer version of the service.`,
        );
      }
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      }
      await syncPostgresCollections(client, contract);
    }),
  );
}
