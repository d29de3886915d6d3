import { existsSync } from 'node:fs';
import type pg from 'pg';
import type { Database } from '../database.ts';
import { MIGRATIONS } from '../store/migrations.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS, describePostgresUrl } from '../store/postgres/connection.ts';
import { migratePostgres } from '../store/postgres/migrations.ts';
import { inTransaction, withSession } from '../store/postgres/session.ts';
import { statement } from '../store/statement-cache.ts';
import { CURSOR_SECRET_SETTING } from '../store/storage.ts';
import { openExistingReadOnly } from './open-existing.ts';
import { Refusal } from './refusal.ts';

export interface CopyReport {
  pets: number;
  keys: number;
  /** Whether the source had a cursor secret (every server start creates one). */
  cursorSecret: boolean;
  /** The target, without its password. */
  target: string;
}

/** The target holds data already; copying into it would mix two services' pets, keys or cursors. */
export class TargetNotEmptyError extends Error {
  override readonly name = 'TargetNotEmptyError';
}

/** Rows per INSERT: large enough that a million pets take a thousand round trips, small enough for any server. */
const BATCH_ROWS = 1_000;

/**
 * A table copied row for row, ids included: the same columns on both sides, with their
 * PostgreSQL types for `unnest`, which turns one array per column into a batch of rows.
 */
interface CopiedTable {
  name: 'pets' | 'api_keys';
  columns: ReadonlyArray<[column: string, postgresType: string]>;
}

const PETS: CopiedTable = {
  name: 'pets',
  columns: [
    ['id', 'bigint'],
    ['name', 'text'],
    ['category_id', 'bigint'],
    ['status', 'text'],
  ],
};

const API_KEYS: CopiedTable = {
  name: 'api_keys',
  columns: [
    ['id', 'bigint'],
    ['label', 'text'],
    ['plan', 'text'],
    ['per_minute', 'bigint'],
    ['per_day', 'bigint'],
    ['key_hash', 'text'],
    // SQLite keeps ISO 8601 text, which PostgreSQL reads as the same instant.
    ['created_at', 'timestamptz'],
    ['revoked_at', 'timestamptz'],
  ],
};

/**
 * Copies the pets, API keys and cursor secret of the SQLite database at `sourcePath` into the
 * empty PostgreSQL database at `targetUrl` (migrated first), keeping ids, so that links, keys
 * and cursors issued before the move keep working. One transaction: either all is copied or
 * nothing. The source is only read, in one transaction, so a server still writing to it cannot
 * split the copy.
 */
export async function copySqliteToPostgres(sourcePath: string, targetUrl: string): Promise<CopyReport> {
  if (!existsSync(sourcePath)) {
    throw new Refusal(`there is no database at ${sourcePath}; name the SQLite file to copy with --from.`);
  }
  const target = describePostgresUrl(targetUrl);
  const source = openExistingReadOnly(sourcePath);
  try {
    refuseUnknownSchema(source, sourcePath);
    await migratePostgres(targetUrl, DEFAULT_CONNECT_TIMEOUT_MS);
    source.exec('BEGIN');
    try {
      return await withSession(targetUrl, DEFAULT_CONNECT_TIMEOUT_MS, (client) =>
        inTransaction(client, async () => {
          // Keeps a server started on the target meanwhile from writing (it waits) until the copy commits.
          await client.query('LOCK TABLE pets, api_keys, settings IN EXCLUSIVE MODE');
          await refuseOccupied(client, target);
          const pets = await copyTable(source, client, PETS);
          const keys = await copyTable(source, client, API_KEYS);
          const cursorSecret = await copyCursorSecret(source, client);
          return { pets, keys, cursorSecret, target };
        }),
      );
    } finally {
      source.exec('COMMIT');
    }
  } finally {
    source.close();
  }
}

/** The columns read below are those of the last SQLite migration; another version is migrated by starting the server on it. */
function refuseUnknownSchema(source: Database, path: string): void {
  const version = statement<[], number>(source, 'PRAGMA user_version').pluck().get() ?? 0;
  const known = MIGRATIONS.at(-1)?.version ?? 0;
  if (version !== known) {
    throw new Refusal(
      `${path} is at schema version ${version}, but this program copies version ${known}; ` +
        'start this version of the server on it once (it migrates the file at start), then copy.',
    );
  }
}

async function refuseOccupied(client: pg.Client, target: string): Promise<void> {
  const { rows } = await client.query<{ pets: number; keys: number; cursorSecret: boolean }>(
    `SELECT (SELECT count(*) FROM pets) AS pets, (SELECT count(*) FROM api_keys) AS keys,
            EXISTS (SELECT 1 FROM settings WHERE key = $1) AS "cursorSecret"`,
    [CURSOR_SECRET_SETTING],
  );
  const [held] = rows;
  if (!held) throw new Error('PostgreSQL returned no row for the contents of the target.');
  if (held.pets === 0 && held.keys === 0 && !held.cursorSecret) return;
  throw new TargetNotEmptyError(
    `${target} is not empty: it holds ${counted(held.pets, 'pet')}, ${counted(held.keys, 'API key')} and ` +
      `${held.cursorSecret ? 'a' : 'no'} cursor secret. db:copy fills only an empty database ` +
      '(starting a server or the keys tool on it creates the cursor secret), so nothing was copied; copy into a new database.',
  );
}

/** Copies every row of `table` in id order, in batches; then moves the target's id sequence past the source's. */
async function copyTable(source: Database, client: pg.Client, table: CopiedTable): Promise<number> {
  const names = table.columns.map(([column]) => column);
  const read = statement<[number, number], unknown[]>(
    source,
    `SELECT ${names.join(', ')} FROM ${table.name} WHERE id > ? ORDER BY id LIMIT ?`,
  ).raw();
  const unnest = table.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const insert = `INSERT INTO ${table.name} (${names.join(', ')}) OVERRIDING SYSTEM VALUE SELECT * FROM unnest(${unnest})`;

  let copied = 0;
  let afterId = 0;
  for (;;) {
    const rows = read.all(afterId, BATCH_ROWS);
    const last = rows.at(-1);
    if (last === undefined) break;
    await client.query(
      insert,
      names.map((_, column) => rows.map((row) => row[column])),
    );
    copied += rows.length;
    afterId = Number(last[0]);
  }
  await continueIdsAfter(source, client, table.name);
  return copied;
}

/**
 * Ids are never handed out twice, not even those of deleted rows: SQLite remembers the highest
 * id it ever gave (`sqlite_sequence`), and the target's sequence continues after it (or after
 * its own, should it have given higher ids before it was emptied).
 */
async function continueIdsAfter(source: Database, client: pg.Client, table: CopiedTable['name']): Promise<void> {
  const highest =
    statement<[string], number>(
      source,
      `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(id) FROM ${table}), 0))`,
    )
      .pluck()
      .get(table) ?? 0;
  if (highest === 0) return;
  await client.query(
    `SELECT setval(sequence, greatest($2::bigint, coalesce(pg_sequence_last_value(sequence), 0)))
       FROM (SELECT pg_get_serial_sequence($1, 'id')::regclass AS sequence) AS identity`,
    [table, highest],
  );
}

async function copyCursorSecret(source: Database, client: pg.Client): Promise<boolean> {
  const secret = statement<[string], Buffer>(source, 'SELECT value FROM settings WHERE key = ?')
    .pluck()
    .get(CURSOR_SECRET_SETTING);
  if (secret === undefined) return false;
  await client.query('INSERT INTO settings (key, value) VALUES ($1, $2)', [CURSOR_SECRET_SETTING, secret]);
  return true;
}

export function describeCopy({ pets, keys, cursorSecret, target }: CopyReport, sourcePath: string): string {
  const counts = [counted(pets, 'pet'), counted(keys, 'API key')];
  if (cursorSecret) counts.push('the cursor secret');
  const listed = `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)}`;
  return `Copied ${listed} from ${sourcePath} to ${target}.`;
}

function counted(count: number, thing: string): string {
  return `${count} ${thing}${count === 1 ? '' : 's'}`;
}
