import { loadContract } from '../../../contract/bundled.ts';
import type { Contract } from '../../../contract/contract.ts';
import { collectionTables } from '../../storage/collection-tables.ts';
import type { Database } from '../../storage/sqlite/database.ts';
import { statement } from '../../storage/sqlite/statement-cache.ts';

export interface DatabaseSummary {
  schemaVersion: number;
  /** Items per collection of the contract, in its order, each with what one item is called. */
  collections: Array<{ noun: string; count: number }>;
  keys: number;
}

/** What the database holds, read in one transaction so the numbers belong to one moment. */
export function summarize(db: Database, contract: Contract = loadContract()): DatabaseSummary {
  const count = (table: string) => statement<[], number>(db, `SELECT count(*) FROM ${table}`).pluck().get() ?? 0;
  return db.transaction(() => ({
    schemaVersion: statement<[], number>(db, 'PRAGMA user_version').pluck().get() ?? 0,
    collections: collectionTables(contract).map((table) => ({ noun: table.collection.noun, count: count(table.name) })),
    keys: count('api_keys'),
  }))();
}

/** `schema version 2, 3 pets, 0 orders, 2 API keys`. */
export function describeSummary({ schemaVersion, collections, keys }: DatabaseSummary): string {
  const counted = (count: number, thing: string) => `${count} ${thing}${count === 1 ? '' : 's'}`;
  return [
    `schema version ${schemaVersion}`,
    ...collections.map(({ noun, count }) => counted(count, noun)),
    counted(keys, 'API key'),
  ].join(', ');
}
