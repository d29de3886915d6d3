import { resolve } from 'node:path';
import type pg from 'pg';
import { loadContract } from '../../../contract/bundled.ts';
import type { Contract } from '../../../contract/contract.ts';
import { exampleItems } from '../../../core/collections/example-items.ts';
import type { Item } from '../../../core/collections/store.ts';
import { PreconditionError } from '../../../core/errors.ts';
import type { StorageConfig } from '../../process/config.ts';
import { type CollectionTable, collectionTables, type Engine, toColumn } from '../../storage/collection-tables.ts';
import { describePostgresUrl } from '../../storage/postgres/address.ts';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../../storage/postgres/connection.ts';
import { migratePostgres } from '../../storage/postgres/migrations.ts';
import { inTransaction, withSession } from '../../storage/postgres/session.ts';
import { type Database, openDatabase } from '../../storage/sqlite/database.ts';
import { statement } from '../../storage/sqlite/statement-cache.ts';
import { continueSequenceAfter, counted, listed } from './copy.ts';

export interface SeedReport {
  /** The SQLite file, or PostgreSQL without the password. */
  database: string;
  /** Items stored per collection, in the contract's order. */
  collections: Array<{ noun: string; count: number; owned: boolean }>;
}

interface Seed {
  table: CollectionTable;
  items: Item[];
  columns: string[];
}

/**
 * The items of the contract's examples (exampleItems, as the stateful mock starts with them), with
 * their ids, for each collection's table. An owned collection (`x-owned-by`) stays empty: each of
 * its items belongs to an API key's line, which the examples cannot name (this database's keys are
 * its own), and shows none of the secrets the service keeps for it.
 */
function seedsOf(contract: Contract): Seed[] {
  const examples = exampleItems(contract);
  return collectionTables(contract).map((table) => ({
    table,
    items: table.owner === undefined ? (examples.get(table.name) ?? []) : [],
    columns: ['id', ...table.fields.map((field) => field.column)],
  }));
}

const valuesOf = (engine: Engine, { table }: Seed, item: Item) => [
  item.id,
  ...table.fields.map((field) => toColumn(engine, field, item[field.name])),
];

/** Fills the database `storage` names (created and migrated as the server opens it) with the contract's example items. */
export async function seedDatabase(storage: StorageConfig, contract: Contract = loadContract()): Promise<SeedReport> {
  if (storage.engine === 'postgres') return seedPostgres(storage.url, contract);
  const db = openDatabase(resolve(storage.path), contract);
  try {
    return seedSqlite(db, contract);
  } finally {
    db.close();
  }
}

/**
 * Stores the contract's example items in `db` (opened by openDatabase), in one IMMEDIATE
 * transaction: a server writing meanwhile waits. AUTOINCREMENT remembers the highest id stored,
 * given or counted, so a create afterwards gets the one after the highest example's.
 */
export function seedSqlite(db: Database, contract: Contract): SeedReport {
  const seeds = seedsOf(contract);
  return db
    .transaction(() => {
      refuseOccupied(
        db.name,
        seeds.map(({ table }) => ({
          table,
          count: statement<[], number>(db, `SELECT count(*) FROM ${table.name}`).pluck().get() ?? 0,
        })),
      );
      for (const seed of seeds) {
        const insert = statement(
          db,
          `INSERT INTO ${seed.table.name} (${seed.columns.join(', ')}) VALUES (${seed.columns.map(() => '?').join(', ')})`,
        );
        for (const item of seed.items) insert.run(...valuesOf('sqlite', seed, item));
      }
      return reportOf(db.name, seeds);
    })
    .immediate();
}

/**
 * Stores the contract's example items in the PostgreSQL database at `url` (migrated first), in
 * one transaction that locks the collections' tables, so that no server's create comes between
 * the check that they are empty and the seed. The ids are given (OVERRIDING SYSTEM VALUE), so each
 * counted id's sequence is moved past the highest.
 */
async function seedPostgres(url: string, contract: Contract): Promise<SeedReport> {
  const database = describePostgresUrl(url);
  await migratePostgres(url, DEFAULT_CONNECT_TIMEOUT_MS, contract);
  const seeds = seedsOf(contract);
  return withSession(url, DEFAULT_CONNECT_TIMEOUT_MS, (client) =>
    inTransaction(client, async () => {
      await client.query(`LOCK TABLE ${seeds.map(({ table }) => table.name).join(', ')} IN EXCLUSIVE MODE`);
      const held = [];
      for (const { table } of seeds) held.push({ table, count: await countRows(client, table.name) });
      refuseOccupied(database, held);
      for (const seed of seeds) {
        const { table, columns, items } = seed;
        for (const item of items) {
          await client.query(
            `INSERT INTO ${table.name} (${columns.join(', ')}) OVERRIDING SYSTEM VALUE VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})`,
            valuesOf('postgres', seed, item),
          );
        }
        if (table.order === 'id') {
          await continueSequenceAfter(client, table.name, 'id', Math.max(0, ...items.map((item) => Number(item.id))));
        }
      }
      return reportOf(database, seeds);
    }),
  );
}

async function countRows(client: pg.Client, table: string): Promise<number> {
  const { rows } = await client.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
  return rows[0]?.count ?? 0;
}

/** Seeding beside items would mix the examples with data of the service's, or collide with their ids. */
function refuseOccupied(database: string, held: ReadonlyArray<{ table: CollectionTable; count: number }>): void {
  const occupied = held.filter(({ count }) => count > 0);
  if (occupied.length === 0) return;
  const holds = occupied.map(
    ({ table, count }) => `the table ${table.name} holds ${counted(count, table.collection.noun)}`,
  );
  throw new PreconditionError(
    `${database} already holds items: ${listed(holds)}. db:seed fills only an empty database, so nothing was seeded.`,
  );
}

function reportOf(database: string, seeds: readonly Seed[]): SeedReport {
  return {
    database,
    collections: seeds.map(({ table, items }) => ({
      noun: table.collection.noun,
      count: items.length,
      owned: table.owner !== undefined,
    })),
  };
}

/** `Seeded data/animal-store.db with 5 pets and 2 orders, ...`. */
export function describeSeed({ database, collections }: SeedReport): string {
  const seeded = collections.filter(({ owned }) => !owned).map(({ noun, count }) => counted(count, noun));
  const owned = collections.filter(({ owned }) => owned).map(({ noun }) => `${noun}s`);
  return (
    `Seeded ${database} with ${listed(seeded)} from the contract's examples, under the ids they show.` +
    (owned.length > 0 ? ` No ${listed(owned)}: each belongs to an API key.` : '')
  );
}
