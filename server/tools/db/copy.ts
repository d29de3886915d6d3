import { existsSync } from 'node:fs';
import type pg from 'pg';
import { loadContract } from '../../../contract/bundled.ts';
import type { Contract } from '../../../contract/contract.ts';
import { PreconditionError, UsageError } from '../../../core/errors.ts';
import { type CollectionTable, collectionTables } from '../../storage/collection-tables.ts';
import { describePostgresUrl } from '../../storage/postgres/address.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../../storage/postgres/connection.ts';
import { migratePostgres } from '../../storage/postgres/migrations.ts';
import { inTransaction, withSession } from '../../storage/postgres/session.ts';
import type { Database } from '../../storage/sqlite/database.ts';
import { MIGRATIONS } from '../../storage/sqlite/migrations.ts';
import { statement } from '../../storage/sqlite/statement-cache.ts';
import { CURSOR_SECRET_SETTING } from '../../storage/storage.ts';
import { openExistingReadOnly } from './open-existing.ts';

export interface CopyReport {
  /** Rows copied per table, collections first (in the contract's order), then the API keys. */
  tables: Array<{ table: string; rows: number; noun: string }>;
  /** Whether the source had a cursor secret (every server start creates one). */
  cursorSecret: boolean;
  /** Answers kept under `Idempotency-Key`s, copied so that a retry after the move still replays. */
  idempotencyAnswers: number;
  /** The target, without its password. */
  target: string;
}

/** Rows per INSERT: large enough that a million rows take a thousand round trips, small enough for any server. */
const BATCH_ROWS = 1_000;

/** The service's tables copied row for row with their ids; `settings` is copied apart, by key. */
const API_KEYS = { table: 'api_keys', noun: 'API key' } as const;
const SETTINGS = 'settings';
const IDEMPOTENCY_KEYS = 'idempotency_keys';
/** The webhooks' outbox, ordered by `position` (its `id` is text), copied apart. */
const WEBHOOK_DELIVERIES = 'webhook_deliveries';

/**
 * Copies every table of the SQLite database at `sourcePath` (each collection of the contract, the
 * API keys and the settings, among them the cursor secret) into the empty PostgreSQL database at
 * `targetUrl` (migrated first), keeping ids, so that links, keys and cursors issued before the
 * move keep working. A table of the source this program does not know is refused, named, rather
 * than left behind. One transaction: either all is copied or nothing. The source is only read, in
 * one transaction, so a server still writing to it cannot split the copy.
 */
export async function copySqliteToPostgres(
  sourcePath: string,
  targetUrl: string,
  contract: Contract = loadContract(),
): Promise<CopyReport> {
  if (!existsSync(sourcePath)) {
    throw new UsageError(`there is no database at ${sourcePath}; name the SQLite file to copy with --from.`);
  }
  const target = describePostgresUrl(targetUrl);
  const source = openExistingReadOnly(sourcePath);
  try {
    refuseUnknownSchema(source, sourcePath);
    const copied = [
      ...collectionTables(contract).map((table: CollectionTable) => ({
        table: table.name,
        noun: table.collection.noun,
        order: table.order,
      })),
      { ...API_KEYS, order: 'id' as const },
    ];
    refuseUnknownTables(source, sourcePath, [
      ...copied.map(({ table }) => table),
      SETTINGS,
      IDEMPOTENCY_KEYS,
      WEBHOOK_DELIVERIES,
    ]);
    await migratePostgres(targetUrl, DEFAULT_CONNECT_TIMEOUT_MS, contract);
    source.exec('BEGIN');
    try {
      return await withSession(targetUrl, DEFAULT_CONNECT_TIMEOUT_MS, (client) =>
        inTransaction(client, async () => {
          const tables = copied.map(({ table }) => table);
          // Keeps a server started on the target meanwhile from writing (it waits) until the copy commits.
          await client.query(
            `LOCK TABLE ${[...tables, SETTINGS, IDEMPOTENCY_KEYS, WEBHOOK_DELIVERIES].join(', ')} IN EXCLUSIVE MODE`,
          );
          await refuseOccupied(client, target, copied);
          const counts = [];
          for (const { table, noun, order } of copied) {
            counts.push({ table, noun, rows: await copyTable(source, client, table, order, sourcePath) });
          }
          const cursorSecret = await copySettings(source, client);
          const idempotencyAnswers = await copyIdempotencyAnswers(source, client);
          // The outbox as it stands: pending deliveries are sent by the new servers.
          await copyByPosition(source, client, WEBHOOK_DELIVERIES);
          return { tables: counts, cursorSecret, idempotencyAnswers, target };
        }),
      );
    } finally {
      source.exec('COMMIT');
    }
  } finally {
    source.close();
  }
}

/** The source's tables are those of the last SQLite migration; another version is migrated by starting the server on it. */
function refuseUnknownSchema(source: Database, path: string): void {
  const version = statement<[], number>(source, 'PRAGMA user_version').pluck().get() ?? 0;
  const known = MIGRATIONS.at(-1)?.version ?? 0;
  if (version !== known) {
    throw new UsageError(
      `${path} is at schema version ${version}, but this program copies version ${known}; ` +
        'start this version of the server on it once (it migrates the file at start), then copy.',
    );
  }
}

/** A table of the source that is neither the service's own nor a collection of this contract would be left behind. */
function refuseUnknownTables(source: Database, path: string, known: string[]): void {
  const unknown = statement<[], string>(
    source,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  )
    .pluck()
    .all()
    .filter((table) => !known.includes(table));
  if (unknown.length > 0) {
    throw new UsageError(
      `${path} holds the table${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, which this version's contract ` +
        `does not describe, so the copy would leave ${unknown.length === 1 ? 'it' : 'them'} behind; nothing was copied. ` +
        'Copy with the version of the service that wrote it.',
    );
  }
}

async function refuseOccupied(
  client: pg.Client,
  target: string,
  copied: ReadonlyArray<{ table: string; noun: string }>,
): Promise<void> {
  const counts = copied.map(({ table }) => `(SELECT count(*) FROM ${table})`).join(', ');
  const { rows } = await client.query<{ counts: number[]; cursorSecret: boolean }>(
    `SELECT ARRAY[${counts}]::bigint[] AS counts, EXISTS (SELECT 1 FROM settings WHERE key = $1) AS "cursorSecret"`,
    [CURSOR_SECRET_SETTING],
  );
  const [held] = rows;
  if (!held) throw new Error('PostgreSQL returned no row for the contents of the target.');
  const tally = copied.map(({ noun }, index) => ({ noun, rows: Number(held.counts[index]) }));
  if (tally.every(({ rows: count }) => count === 0) && !held.cursorSecret) return;
  const holds = tally.map(({ noun, rows: count }) => counted(count, noun));
  holds.push(`${held.cursorSecret ? 'a' : 'no'} cursor secret`);
  throw new PreconditionError(
    `${target} is not empty: it holds ${listed(holds)}. db:copy fills only an empty database ` +
      '(starting a server or the keys tool on it creates the cursor secret), so nothing was copied; copy into a new database.',
  );
}

/**
 * Copies every row of `table` in `order` (its id, or the position beside a random id), in
 * batches, with the columns both sides have (a column only the source has is refused, named);
 * then moves the target's sequence past the source's.
 */
async function copyTable(
  source: Database,
  client: pg.Client,
  table: string,
  order: CollectionTable['order'],
  sourcePath: string,
): Promise<number> {
  const { names, typeOf } = await columnsOf(source, client, table);
  const missing = names.filter((name) => !typeOf.has(name));
  if (missing.length > 0) {
    throw new UsageError(
      `${sourcePath} keeps ${missing.map((name) => `${table}.${name}`).join(', ')}, which the PostgreSQL schema of this contract has no column for; nothing was copied.`,
    );
  }
  // `unnest` turns one array per column into a batch of rows; SQLite's ISO 8601 text, 0/1 and JSON
  // text are read by PostgreSQL as the same instants, booleans and documents.
  const unnest = names.map((name, index) => `$${index + 1}::${typeOf.get(name)}[]`).join(', ');
  const { copied } = await copyInBatches(
    source,
    client,
    `SELECT ${order}, ${names.join(', ')} FROM ${table} WHERE ${order} > ? ORDER BY ${order} LIMIT ?`,
    `INSERT INTO ${table} (${names.join(', ')}) OVERRIDING SYSTEM VALUE SELECT * FROM unnest(${unnest})`,
  );
  await continueAfter(source, client, table, order);
  return copied;
}

/**
 * Ids (and positions) are never handed out twice, not even those of deleted rows: SQLite
 * remembers the highest it ever gave (`sqlite_sequence`), and the target's sequence continues
 * after it (or after its own, should it have given higher ones before it was emptied).
 */
async function continueAfter(
  source: Database,
  client: pg.Client,
  table: string,
  column: CollectionTable['order'],
): Promise<void> {
  const highest =
    statement<[string], number>(
      source,
      `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(${column}) FROM ${table}), 0))`,
    )
      .pluck()
      .get(table) ?? 0;
  await continueSequenceAfter(client, table, column, highest);
}

/** Moves the sequence of `table`'s `column` to `highest`, never back: the next row it numbers gets a higher one. */
export async function continueSequenceAfter(
  client: pg.ClientBase,
  table: string,
  column: CollectionTable['order'],
  highest: number,
): Promise<void> {
  if (highest === 0) return;
  await client.query(
    `SELECT setval(sequence, greatest($2::bigint, coalesce(pg_sequence_last_value(sequence), 0)))
       FROM (SELECT pg_get_serial_sequence($1, $3)::regclass AS sequence) AS identity`,
    [table, highest, column],
  );
}

/** Every setting, by key; says whether the cursor secret was among them. */
async function copySettings(source: Database, client: pg.Client): Promise<boolean> {
  const settings = statement<[], { key: string; value: Buffer }>(source, 'SELECT key, value FROM settings').all();
  for (const { key, value } of settings) {
    await client.query('INSERT INTO settings (key, value) VALUES ($1, $2)', [key, value]);
  }
  return settings.some(({ key }) => key === CURSOR_SECRET_SETTING);
}

/** Every row of the outbox in `position` order, in batches, keeping positions. */
async function copyByPosition(source: Database, client: pg.Client, table: string): Promise<void> {
  const { names, typeOf } = await columnsOf(source, client, table);
  const unnest = names.map((name, index) => `$${index + 1}::${typeOf.get(name)}[]`).join(', ');
  const { lastPosition } = await copyInBatches(
    source,
    client,
    `SELECT position, ${names.join(', ')} FROM ${table} WHERE position > ? ORDER BY position LIMIT ?`,
    `INSERT INTO ${table} (${names.join(', ')}) OVERRIDING SYSTEM VALUE SELECT * FROM unnest(${unnest})`,
  );
  if (lastPosition > 0)
    await client.query(`SELECT setval(pg_get_serial_sequence($1, 'position'), $2::bigint)`, [table, lastPosition]);
}

/** The kept answers, in batches; they have no id, so they are read in rowid order. */
async function copyIdempotencyAnswers(source: Database, client: pg.Client): Promise<number> {
  const columns = ['scope', 'key', 'fingerprint', 'status', 'body', 'location', 'recorded_at'];
  const types = ['text', 'text', 'text', 'int4', 'text', 'text', 'int8'];
  const unnest = types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
  const { copied } = await copyInBatches(
    source,
    client,
    `SELECT rowid, ${columns.join(', ')} FROM ${IDEMPOTENCY_KEYS} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
    `INSERT INTO ${IDEMPOTENCY_KEYS} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`,
  );
  return copied;
}

/**
 * Copies the rows `select` reads (each its position first, then its columns), BATCH_ROWS at a
 * time in position order, each batch as one `insert` of one array per column; says how many and
 * the last position.
 */
async function copyInBatches(
  source: Database,
  client: pg.Client,
  select: string,
  insert: string,
): Promise<{ copied: number; lastPosition: number }> {
  const read = statement<[number, number], unknown[]>(source, select).raw();
  let copied = 0;
  let afterPosition = 0;
  for (;;) {
    const rows = read.all(afterPosition, BATCH_ROWS);
    const last = rows.at(-1);
    if (last === undefined) return { copied, lastPosition: afterPosition };
    const [, ...columns] = last;
    await client.query(
      insert,
      columns.map((_, column) => rows.map((row) => row[column + 1])),
    );
    copied += rows.length;
    afterPosition = Number(last[0]);
  }
}

export function describeCopy(
  { tables, cursorSecret, idempotencyAnswers, target }: CopyReport,
  sourcePath: string,
): string {
  const counts = tables.map(({ noun, rows }) => counted(rows, noun));
  if (idempotencyAnswers > 0) counts.push(counted(idempotencyAnswers, 'kept idempotent answer'));
  if (cursorSecret) counts.push('the cursor secret');
  return `Copied ${listed(counts)} from ${sourcePath} to ${target}.`;
}

export function counted(count: number, thing: string): string {
  return `${count} ${thing}${count === 1 ? '' : 's'}`;
}

export function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The columns of `table` in the source, and each one's type in the target. */
async function columnsOf(
  source: Database,
  client: pg.Client,
  table: string,
): Promise<{ names: string[]; typeOf: Map<string, string> }> {
  const names = statement<[], { name: string }>(source, `PRAGMA table_info(${table})`)
    .all()
    .map((column) => column.name);
  const { rows } = await client.query<{ column_name: string; udt_name: string }>(
    `SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
    [table],
  );
  return { names, typeOf: new Map(rows.map((column) => [column.column_name, column.udt_name])) };
}
