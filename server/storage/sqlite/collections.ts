// The contract's collections in SQLite: their tables brought in line with the contract when the
// database opens, and a store per collection with group commit and read caches.
import type { Database, Statement } from 'better-sqlite3';
import type { Collection, WriteKind } from '../../../contract/collections.ts';
import type { Contract } from '../../../contract/contract.ts';
import { ownerLimitReached, randomItemId } from '../../../core/collections/owners.ts';
import { missingReference, referencesOf } from '../../../core/collections/references.ts';
import type {
  CollectionStore,
  CollectionStores,
  Item,
  ItemChange,
  ItemCheck,
  ItemId,
  Page,
  PageQuery,
} from '../../../core/collections/store.ts';
import { sameItem } from '../../../core/collections/store.ts';
import { type ApiError, UnavailableError } from '../../../core/errors.ts';
import type { CreateOnceOutcome, IdempotencyClaim, KeptAnswer } from '../../../core/idempotency/store.ts';
import {
  assertStorable,
  COLUMN_TYPES,
  type CollectionTable,
  collectionTables,
  defaultLiteral,
  pageOf,
  pageParameters,
  pageSelectList,
  rowReader,
  selectList,
  toColumn,
} from '../collection-tables.ts';
import { CACHED_ITEMS, CACHED_PAGES, ReadCache } from '../read-cache.ts';
import type { StorageObserver } from '../storage.ts';
import { changeDetector } from './change-detector.ts';
import { withSqlite } from './errors.ts';
import { GroupCommit } from './group-commit.ts';
import { SqliteIdempotencyStore } from './idempotency.ts';
import { statement } from './statement-cache.ts';

export interface SqliteStoreOptions {
  /** Told of each group commit's size (the metrics); nobody by default. */
  observer?: StorageObserver;
  /** Throws UnavailableError when DATABASE_PATH no longer names the open file; checks nothing by default. */
  checkFile?: () => void;
  /**
   * Records the event of a write (`pet.created`) inside the write's transaction, so it commits
   * with the write or not at all: the webhooks' outbox. Nothing by default.
   */
  recordWrite?: WriteRecorder;
}

/** What a write to a collection tells the webhooks, in its transaction (synchronous, as SQLite's are). */
type WriteRecorder = (collection: Collection, change: WriteKind, item: Item) => void;

/** What a create of a group commit came to: also refused alone (a reference naming no item, an owner at its limit), the others of its batch stored. */
type CreateOutcome = CreateOnceOutcome<Item> | { refused: ApiError };

/** A create waiting for its group commit, with its claim on an idempotency key if it has one. */
interface PendingCreate {
  fields: Record<string, unknown>;
  claim?: IdempotencyClaim;
  answerOf?: (item: Item) => KeptAnswer;
}

/**
 * Creates the table of each collection the contract has and the database lacks, adds the columns
 * of fields the contract added, and the indexes of its filters, in one IMMEDIATE transaction (two
 * processes opening one file do not both do it). A column whose type the contract changed, or a
 * required field added without a default to a table that has rows, stops the start, named.
 */
export function syncSqliteCollections(db: Database, contract: Contract): void {
  const types = COLUMN_TYPES.sqlite;
  db.transaction(() => {
    for (const table of collectionTables(contract)) {
      const existing = new Map(
        statement<[], { name: string; type: string }>(db, `PRAGMA table_info(${table.name})`)
          .all()
          .map((column) => [column.name, column.type]),
      );
      if (existing.size === 0) {
        // STRICT: SQLite refuses a value of the wrong type instead of converting it.
        // AUTOINCREMENT: the id (or position) of a deleted row is never handed out again.
        const columns = table.fields.map(
          (field) => `${field.column} ${types[field.type]}${field.required ? ' NOT NULL' : ''}`,
        );
        const key =
          table.order === 'id'
            ? 'id INTEGER PRIMARY KEY AUTOINCREMENT'
            : 'position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE';
        db.exec(`CREATE TABLE ${table.name} (${key}${columns.map((column) => `, ${column}`).join('')}) STRICT`);
      }
      for (const field of table.fields) {
        const type = existing.get(field.column);
        if (type !== undefined && existing.size > 0) {
          if (type !== types[field.type])
            throw new Error(
              `The column ${table.name}.${field.column} holds ${type}, but the contract now makes ${field.name} a ${field.type}; migrate the data by hand.`,
            );
          continue;
        }
        if (existing.size === 0) continue;
        db.exec(`ALTER TABLE ${table.name} ADD COLUMN ${addedColumn(db, table, field)}`);
      }
      for (const { index, column } of table.filterIndexes.values()) {
        // A filtered page seeks to (value, position) and reads `limit` rows in order.
        db.exec(`CREATE INDEX IF NOT EXISTS ${index} ON ${table.name} (${column}, ${table.order})`);
      }
    }
  }).immediate();
}

function addedColumn(db: Database, table: CollectionTable, field: CollectionTable['fields'][number]): string {
  const type = COLUMN_TYPES.sqlite[field.type];
  if (!field.required) return `${field.column} ${type}`;
  if (field.default !== undefined) return `${field.column} ${type} NOT NULL DEFAULT ${defaultLiteral('sqlite', field)}`;
  const rows = statement<[], number>(db, `SELECT count(*) FROM ${table.name}`).pluck().get() ?? 0;
  if (rows > 0)
    throw new Error(
      `The contract makes ${table.collection.noun}.${field.name} required, but the ${rows} stored ${table.name} have no value for it; give it a default in the contract.`,
    );
  return `${field.column} ${type}`;
}

/**
 * A store for each of the contract's collections, on `db` (synced first). `checkFile` runs before
 * each group commit and throws when the commit could not last (the database file was deleted).
 */
export function sqliteCollectionStores(
  db: Database,
  contract: Contract,
  idempotency = new SqliteIdempotencyStore(db),
  { observer = {}, checkFile = () => {}, recordWrite = () => {} }: SqliteStoreOptions = {},
): CollectionStores {
  const stores = new Map(
    collectionTables(contract).map(
      (table) =>
        [table.name, new SqliteCollectionStore(db, table, idempotency, { observer, checkFile, recordWrite })] as const,
    ),
  );
  return (name) => {
    const store = stores.get(name);
    if (!store) throw new Error(`The contract has no collection ${name}.`);
    return store;
  };
}

class SqliteCollectionStore implements CollectionStore {
  readonly #db: Database;
  readonly #table: CollectionTable;
  readonly #read: (row: Item) => Item;
  readonly #get: Statement<[ItemId], Item>;
  readonly #pages: ReadCache<Page>;
  readonly #items: ReadCache<Item>;
  readonly #creates: GroupCommit<PendingCreate, CreateOutcome>;
  readonly #update: (id: ItemId, change: ItemChange) => Item | undefined;
  readonly #delete: (id: ItemId, check: ItemCheck) => Item | undefined;
  readonly #checkFile: () => void;
  readonly #recordWrite: WriteRecorder;

  constructor(
    db: Database,
    table: CollectionTable,
    idempotency: SqliteIdempotencyStore,
    { observer, checkFile, recordWrite }: Required<SqliteStoreOptions>,
  ) {
    this.#db = db;
    this.#recordWrite = recordWrite;
    this.#table = table;
    this.#read = rowReader('sqlite', table);
    this.#get = statement(db, `SELECT ${selectList(table)} FROM ${table.name} WHERE id = ?`);
    // Any commit, by this process or another one, empties them before the next read.
    this.#pages = new ReadCache(changeDetector(db), CACHED_PAGES);
    this.#items = new ReadCache(changeDetector(db), CACHED_ITEMS);
    const columns = table.fields.map((field) => field.column);
    // Random ids are made here; counted ones by the table.
    const { id: identity } = table.collection;
    const newId = identity.type === 'string' ? () => [randomItemId(identity)] : () => [];
    const inserted = identity.type === 'string' ? ['id', ...columns] : columns;
    const insert = statement<unknown[], Item>(
      db,
      `INSERT INTO ${table.name} (${inserted.join(', ')}) VALUES (${inserted.map(() => '?').join(', ')}) RETURNING ${selectList(table)}`,
    );
    // In the batch's transaction, so the items of this batch before it are counted too.
    const overLimit = ownerLimitCheck(db, table);
    // Group commit: the items created in one turn of the event loop share one transaction, so one
    // fsync (synchronous = FULL) acknowledges them all instead of one fsync per item.
    // IMMEDIATE: the write lock is taken (or waited for, busy_timeout) at BEGIN.
    // In the write's transaction, which holds the write lock: no delete of the item named comes between.
    const missing = (fields: Record<string, unknown>, before?: Item) =>
      referencesOf(table.collection, fields, before).find(
        ({ target, id }) =>
          statement<[number], number>(db, `SELECT 1 FROM ${target.name} WHERE id = ?`).pluck().get(id) === undefined,
      );
    const insertAll = db.transaction((items: PendingCreate[]) =>
      items.map(({ fields, claim, answerOf }): CreateOutcome => {
        // Another process on the file may have committed this key since the request looked.
        const kept = claim && idempotency.findNow(claim);
        if (kept) return { kept };
        const reference = missing(fields);
        if (reference) return { refused: missingReference(reference) };
        const refusal = overLimit(fields);
        if (refusal) return { refused: refusal };
        // `all`, never `get`: `get` stops at the returned row and resets the statement, which
        // (outside a transaction) commits and drops the commit's error (a full disk), so an item
        // that was never stored would get its 201. `all` runs the statement to its end.
        const [stored] = insert.all(
          ...newId(),
          ...table.fields.map((field) => toColumn('sqlite', field, fields[field.name])),
        );
        if (!stored) throw new Error(`SQLite returned no row for an inserted ${table.collection.noun}.`);
        const created = this.#read(stored);
        // In the batch's transaction: the answer and the event commit with the item, or none does.
        this.#recordWrite(table.collection, 'created', created);
        if (claim && answerOf) idempotency.recordNow(claim, answerOf(created));
        return { created };
      }),
    ).immediate;
    this.#checkFile = checkFile;
    const update = statement<unknown[], Item>(
      db,
      `UPDATE ${table.name} SET ${columns.map((column) => `${column} = ?`).join(', ')} WHERE id = ? RETURNING ${selectList(table)}`,
    );
    // IMMEDIATE: the write lock is taken at BEGIN, so the item read is the one the change replaces
    // (another process on the file waits, busy_timeout); a change that throws rolls back.
    this.#update = db.transaction((id: ItemId, change: ItemChange): Item | undefined => {
      const row = this.#get.get(id);
      if (!row) return undefined;
      const current = this.#read(row);
      const fields = change(current);
      assertStorable('sqlite', table, fields);
      const reference = missing(fields, current);
      if (reference) throw missingReference(reference);
      // `all`, never `get`: see the insert.
      const [stored] = update.all(...table.fields.map((field) => toColumn('sqlite', field, fields[field.name])), id);
      if (!stored) throw new Error(`SQLite returned no row for an updated ${table.collection.noun}.`);
      const updated = this.#read(stored);
      // The change's event commits with it, or neither does; a change to what the item was is none.
      if (!sameItem(current, updated)) this.#recordWrite(table.collection, 'updated', updated);
      return updated;
    }).immediate;
    const remove = statement(db, `DELETE FROM ${table.name} WHERE id = ?`);
    // IMMEDIATE, as the update: the item checked is the one removed; a check that throws removes nothing.
    this.#delete = db.transaction((id: ItemId, check: ItemCheck): Item | undefined => {
      const row = this.#get.get(id);
      if (!row) return undefined;
      const current = this.#read(row);
      check(current);
      remove.run(id);
      // Its event carries the item as it was, and commits with the removal or not at all.
      this.#recordWrite(table.collection, 'deleted', current);
      return current;
    }).immediate;
    this.#creates = new GroupCommit(
      (items) =>
        withSqlite(() => {
          // A batch still queued when the service closed the database (a shutdown past its timeout).
          if (!db.open) throw new UnavailableError('storage', 'the database is closed');
          // A commit to a file no longer at its path would be acknowledged, then lost at restart.
          checkFile();
          // Returns after the COMMIT (synced): a failed commit or insert throws, and rolls back the
          // whole batch, so no item of it is stored or acknowledged.
          return insertAll(items);
        }),
      { onBatch: observer.groupCommitBatch },
    );
  }

  /** Resolves once the item's transaction has committed; items created together share one commit. */
  async create(fields: Record<string, unknown>): Promise<Item> {
    // Checked before queueing: a value no engine can store refuses only its own create.
    assertStorable('sqlite', this.#table, fields);
    const outcome = await this.#creates.submit({ fields });
    if ('refused' in outcome) throw outcome.refused;
    if (!('created' in outcome)) throw new Error('A create without an idempotency key found a kept answer.');
    return outcome.created;
  }

  async createOnce(
    fields: Record<string, unknown>,
    claim: IdempotencyClaim,
    answerOf: (item: Item) => KeptAnswer,
  ): Promise<CreateOnceOutcome<Item>> {
    assertStorable('sqlite', this.#table, fields);
    const outcome = await this.#creates.submit({ fields, claim, answerOf });
    if ('refused' in outcome) throw outcome.refused;
    return outcome;
  }

  async update(id: ItemId, change: ItemChange): Promise<Item | undefined> {
    return this.#write(() => this.#update(id, change));
  }

  async delete(id: ItemId, check: ItemCheck): Promise<Item | undefined> {
    return this.#write(() => this.#delete(id, check));
  }

  /** A write's transaction, on a database still open and still at its path. */
  #write<T>(transaction: () => T): T {
    return withSqlite(() => {
      if (!this.#db.open) throw new UnavailableError('storage', 'the database is closed');
      this.#checkFile();
      return transaction();
    });
  }

  async get(id: ItemId): Promise<Item | undefined> {
    return withSqlite(() =>
      this.#items.get(String(id), () => {
        const row = this.#get.get(id);
        return row && this.#read(row);
      }),
    );
  }

  async list({ limit, filters = {}, after = 0 }: PageQuery): Promise<Page> {
    const given = Object.entries(filters);
    return withSqlite(() =>
      this.#pages.get(JSON.stringify([given, after, limit]), () => {
        const rows = this.#page(given.map(([name]) => name)).all(
          ...pageParameters('sqlite', this.#table, given, after, limit),
        );
        return pageOf(this.#table, rows, limit, this.#read);
      }),
    );
  }

  /** The page statement for these filters, prepared once per database. */
  #page(filterNames: string[]): Statement<unknown[], Item> {
    return statement(this.#db, pageQuery(this.#table, filterNames));
  }
}

/** The refusal of a create beyond its owner's `x-owner-limit`, where the collection has one; undefined within it. */
function ownerLimitCheck(
  db: Database,
  table: CollectionTable,
): (fields: Record<string, unknown>) => ApiError | undefined {
  const { owner } = table;
  const limit = table.collection.ownerLimit;
  if (!owner || !limit) return () => undefined;
  const owned = statement<[unknown], number>(
    db,
    `SELECT count(*) FROM ${table.name} WHERE ${owner.column} = ?`,
  ).pluck();
  return (fields) =>
    (owned.get(fields[owner.name]) ?? 0) >= limit.items ? ownerLimitReached(table.collection, limit) : undefined;
}

/**
 * The page of `table` filtered by `filterNames` (their values, then the position after which it
 * starts and limit + 1, as parameters). INDEXED BY: whatever statistics say, a page reads about
 * `limit` index entries, even for a rare value at a million rows (a scan in order would skip
 * every non-matching row).
 */
export function pageQuery(table: CollectionTable, filterNames: readonly string[]): string {
  const conditions = filterNames.map((name) => `${table.filterIndexes.get(name)?.column ?? name} = ?`);
  const first = filterNames[0] === undefined ? undefined : table.filterIndexes.get(filterNames[0]);
  const source = first ? `${table.name} INDEXED BY ${first.index}` : table.name;
  return `SELECT ${pageSelectList(table)} FROM ${source} WHERE ${[...conditions, `${table.order} > ?`].join(' AND ')} ORDER BY ${table.order} LIMIT ?`;
}
