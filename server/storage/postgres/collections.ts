// The contract's collections in PostgreSQL: their tables brought in line with the contract by the
// migration (under its advisory lock), and a store per collection on the pool.
import type pg from 'pg';
import type { Collection, OwnerLimit, WriteKind } from '../../../contract/collections.ts';
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
import { UnavailableError } from '../../../core/errors.ts';
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
import { type Changes, COLLECTION_CHANGES } from './changes.ts';
import { PostgresIdempotencyStore } from './idempotency.ts';
import { inPoolTransaction } from './session.ts';
import { execute, type NamedStatement } from './statements.ts';

/**
 * Creates the table of each collection the contract has and the database lacks, adds the columns
 * of fields the contract added and the indexes of its filters. Runs inside the migration's
 * transaction. A column whose type the contract changed, or a required field added without a
 * default to a table that has rows, fails the migration, named, and changes nothing.
 */
export async function syncPostgresCollections(client: pg.Client, contract: Contract): Promise<void> {
  const types = COLUMN_TYPES.postgres;
  // What every collection table's trigger runs (notifyChangesOf).
  await client.query(`
    CREATE OR REPLACE FUNCTION animal_store_collection_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${COLLECTION_CHANGES}', TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`);
  for (const table of collectionTables(contract)) {
    const { rows } = await client.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1`,
      [table.name],
    );
    const existing = new Map(rows.map((row) => [row.column_name, row.data_type]));
    if (existing.size === 0) {
      // ALWAYS: an id (or position) comes from the sequence, which never hands one out twice,
      // not even that of a rolled-back insert. Only db:copy overrides it.
      const columns = table.fields.map(
        (field) => `, ${field.column} ${types[field.type]}${field.required ? ' NOT NULL' : ''}`,
      );
      const key =
        table.order === 'id'
          ? 'id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY'
          : 'position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL UNIQUE';
      await client.query(`CREATE TABLE ${table.name} (${key}${columns.join('')})`);
    } else {
      for (const field of table.fields) {
        const type = existing.get(field.column);
        if (type === undefined) {
          await client.query(`ALTER TABLE ${table.name} ADD COLUMN ${await addedColumn(client, table, field)}`);
        } else if (type !== types[field.type]) {
          throw new Error(
            `The column ${table.name}.${field.column} holds ${type}, but the contract now makes ${field.name} a ${field.type}; migrate the data by hand.`,
          );
        }
      }
    }
    for (const { index, column } of table.filterIndexes.values()) {
      // A filtered page seeks to (value, position) and reads `limit` rows in order.
      await client.query(`CREATE INDEX IF NOT EXISTS ${index} ON ${table.name} (${column}, ${table.order})`);
    }
    await notifyChangesOf(client, table.name);
  }
}

/**
 * Every commit that writes `table`, whoever makes it (an instance, db:copy, an operator's SQL),
 * notifies COLLECTION_CHANGES with the table's name: each instance's read caches of it listen
 * (changes.ts). Created once; a DROP TRIGGER would lock the table at every start.
 */
async function notifyChangesOf(client: pg.Client, table: string): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_trigger WHERE tgname = $1 AND tgrelid = to_regclass($2)', [
    `${table}_changed`,
    table,
  ]);
  if (rowCount === 0)
    await client.query(
      `CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION animal_store_collection_changed()`,
    );
}

async function addedColumn(client: pg.Client, table: CollectionTable, field: CollectionTable['fields'][number]) {
  const type = COLUMN_TYPES.postgres[field.type];
  if (!field.required) return `${field.column} ${type}`;
  if (field.default !== undefined)
    return `${field.column} ${type} NOT NULL DEFAULT ${defaultLiteral('postgres', field)}`;
  const { rows } = await client.query<{ count: number }>(`SELECT count(*) AS count FROM ${table.name}`);
  const stored = rows[0]?.count ?? 0;
  if (stored > 0)
    throw new Error(
      `The contract makes ${table.collection.noun}.${field.name} required, but the ${stored} stored ${table.name} have no value for it; give it a default in the contract.`,
    );
  return `${field.column} ${type} NOT NULL`;
}

/** A store for each of the contract's collections, on the pool. */
export function postgresCollectionStores(
  pool: pg.Pool,
  contract: Contract,
  idempotency = new PostgresIdempotencyStore(pool),
  recordWrite?: PostgresWriteRecorder,
  changes?: Changes,
): CollectionStores {
  const stores = new Map(
    collectionTables(contract).map(
      (table) => [table.name, new PostgresCollectionStore(pool, table, idempotency, recordWrite, changes)] as const,
    ),
  );
  return (name) => {
    const store = stores.get(name);
    if (!store) throw new Error(`The contract has no collection ${name}.`);
    return store;
  };
}

/**
 * What a write to a collection tells the webhooks, on the connection of the write's transaction,
 * so that its event commits with it or not at all.
 */
export type PostgresWriteRecorder = (
  db: pg.Pool | pg.PoolClient,
  collection: Collection,
  change: WriteKind,
  item: Item,
) => Promise<void>;

/**
 * A collection in PostgreSQL, shared by every instance of the service. Pages and items are cached
 * as SQLite's are, while `changes` listens: a write by any instance or tool notifies every
 * instance, which forgets what it kept of the table. A read first makes sure it has heard every
 * change committed before it arrived (one round trip on the listening connection, shared by the
 * reads meanwhile), so no instance answers a page older than a write any instance acknowledged.
 */
class PostgresCollectionStore implements CollectionStore {
  readonly #pool: pg.Pool;
  readonly #table: CollectionTable;
  readonly #read: (row: Item) => Item;
  readonly #insert: NamedStatement;
  readonly #get: NamedStatement;
  readonly #lock: NamedStatement;
  readonly #update: NamedStatement;
  readonly #delete: NamedStatement;
  /** Waits for the other creates of the owner, then counts its items: where the collection has an owner limit. */
  readonly #owned: { field: string; limit: OwnerLimit; lock: NamedStatement; count: NamedStatement } | undefined;
  /** The lookup of an item a reference names, by the table it names. */
  readonly #referenced: Map<string, NamedStatement>;
  readonly #pageStatements = new Map<string, NamedStatement>();
  readonly #idempotency: PostgresIdempotencyStore;
  readonly #recordWrite: PostgresWriteRecorder | undefined;
  readonly #changes: Changes | undefined;
  /** Counts the changes of the table heard: this instance's own writes come back as notifications too, before any later read's round trip ends. */
  #changeCount = 0;
  readonly #pages: ReadCache<Page>;
  readonly #items: ReadCache<Item>;

  constructor(
    pool: pg.Pool,
    table: CollectionTable,
    idempotency: PostgresIdempotencyStore,
    recordWrite: PostgresWriteRecorder | undefined,
    changes: Changes | undefined,
  ) {
    this.#pool = pool;
    this.#changes = changes;
    changes?.subscribe(COLLECTION_CHANGES, (name) => {
      if (name === undefined || name === table.name) this.#changeCount += 1;
    });
    this.#pages = new ReadCache(this.#changeDetector(), CACHED_PAGES);
    this.#items = new ReadCache(this.#changeDetector(), CACHED_ITEMS);
    this.#recordWrite = recordWrite;
    this.#idempotency = idempotency;
    this.#table = table;
    this.#read = rowReader('postgres', table);
    const columns = table.fields.map((field) => field.column);
    // Random ids are made here, as the first parameter; counted ones by the table.
    const inserted = table.collection.id.type === 'string' ? ['id', ...columns] : columns;
    this.#insert = {
      name: `${table.name}.insert`,
      text: `INSERT INTO ${table.name} (${inserted.join(', ')}) VALUES (${inserted.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING ${selectList(table)}`,
    };
    const { owner } = table;
    const limit = table.collection.ownerLimit;
    this.#owned =
      owner && limit
        ? {
            field: owner.name,
            limit,
            // Creates of one owner wait for each other here, so two at once cannot both be the last allowed.
            lock: {
              name: `${table.name}.owner-lock`,
              text: `SELECT pg_advisory_xact_lock(hashtextextended('${table.name}:' || $1::text, 0))`,
            },
            count: {
              name: `${table.name}.owned`,
              text: `SELECT count(*)::int AS count FROM ${table.name} WHERE ${owner.column} = $1`,
            },
          }
        : undefined;
    this.#get = { name: `${table.name}.get`, text: `SELECT ${selectList(table)} FROM ${table.name} WHERE id = $1` };
    // FOR UPDATE: another instance's change of the item waits for this one's commit, then reads the result.
    this.#lock = { name: `${table.name}.lock`, text: `${this.#get.text} FOR UPDATE` };
    this.#update = {
      name: `${table.name}.update`,
      text: `UPDATE ${table.name} SET ${columns.map((column, index) => `${column} = $${index + 1}`).join(', ')} WHERE id = $${columns.length + 1} RETURNING ${selectList(table)}`,
    };
    this.#delete = { name: `${table.name}.delete`, text: `DELETE FROM ${table.name} WHERE id = $1` };
    this.#referenced = new Map(
      table.fields.flatMap(({ references }) =>
        references
          ? [
              [
                references.name,
                {
                  name: `${references.name}.referenced`,
                  text: `SELECT 1 FROM ${references.name} WHERE id = $1 FOR KEY SHARE`,
                },
              ],
            ]
          : [],
      ),
    );
  }

  /**
   * Refuses a write whose reference names no item, on the write's transaction. FOR KEY SHARE: the
   * item found stays until the write commits (its delete waits); one deleted first is not found.
   */
  async #checkReferences(client: pg.PoolClient | pg.Pool, fields: Record<string, unknown>, before?: Item) {
    for (const reference of referencesOf(this.#table.collection, fields, before)) {
      const lookup = this.#referenced.get(reference.target.name);
      if (!lookup) throw new Error(`${this.#table.name} has no lookup of ${reference.target.name}.`);
      const { rows } = await execute(client, lookup, [reference.id]);
      if (rows.length === 0) throw missingReference(reference);
    }
  }

  async update(id: ItemId, change: ItemChange): Promise<Item | undefined> {
    return inPoolTransaction(this.#pool, async (client) => {
      const { rows } = await execute<Item>(client, this.#lock, [id]);
      const current = rows[0];
      if (!current) return undefined;
      const before = this.#read(current);
      const fields = change(before);
      assertStorable('postgres', this.#table, fields);
      await this.#checkReferences(client, fields, before);
      const updated = await execute<Item>(client, this.#update, [
        ...this.#table.fields.map((field) => toColumn('postgres', field, fields[field.name])),
        id,
      ]);
      const [stored] = updated.rows;
      if (!stored) throw new Error(`PostgreSQL returned no row for an updated ${this.#table.collection.noun}.`);
      const item = this.#read(stored);
      // The change's event commits with it, or neither does; a change to what the item was is none.
      if (this.#recordWrite && !sameItem(before, item))
        await this.#recordWrite(client, this.#table.collection, 'updated', item);
      return item;
    });
  }

  async delete(id: ItemId, check: ItemCheck): Promise<Item | undefined> {
    return inPoolTransaction(this.#pool, async (client) => {
      const { rows } = await execute<Item>(client, this.#lock, [id]);
      const current = rows[0] && this.#read(rows[0]);
      if (!current) return undefined;
      check(current);
      await execute(client, this.#delete, [id]);
      // Its event carries the item as it was, and commits with the removal or not at all.
      if (this.#recordWrite) await this.#recordWrite(client, this.#table.collection, 'deleted', current);
      return current;
    });
  }

  async create(fields: Record<string, unknown>): Promise<Item> {
    assertStorable('postgres', this.#table, fields);
    // In a transaction rather than as one self-committing statement: an INSERT held by a stalled
    // network would otherwise commit when it arrives, after the client was answered 503.
    return inPoolTransaction(this.#pool, (client) => this.#insertOn(client, fields));
  }

  async createOnce(
    fields: Record<string, unknown>,
    claim: IdempotencyClaim,
    answerOf: (item: Item) => KeptAnswer,
  ): Promise<CreateOnceOutcome<Item>> {
    assertStorable('postgres', this.#table, fields);
    return this.#idempotency.createOnce(claim, (client) => this.#insertOn(client, fields), answerOf);
  }

  async #insertOn(db: pg.Pool | pg.PoolClient, fields: Record<string, unknown>): Promise<Item> {
    await this.#checkReferences(db, fields);
    const { collection } = this.#table;
    if (this.#owned) {
      const { field, limit, lock, count } = this.#owned;
      await execute(db, lock, [fields[field]]);
      const { rows } = await execute<{ count: number }>(db, count, [fields[field]]);
      if ((rows[0]?.count ?? 0) >= limit.items) throw ownerLimitReached(collection, limit);
    }
    const { id: identity } = collection;
    const { rows } = await execute<Item>(db, this.#insert, [
      ...(identity.type === 'string' ? [randomItemId(identity)] : []),
      ...this.#table.fields.map((field) => toColumn('postgres', field, fields[field.name])),
    ]);
    const [stored] = rows;
    if (!stored) throw new Error(`PostgreSQL returned no row for an inserted ${this.#table.collection.noun}.`);
    const created = this.#read(stored);
    // `db` is the create's transaction whenever a recorder is set (create and createOnce).
    if (this.#recordWrite) await this.#recordWrite(db, this.#table.collection, 'created', created);
    return created;
  }

  async get(id: ItemId): Promise<Item | undefined> {
    const read = async () => {
      const { rows } = await execute<Item>(this.#pool, this.#get, [id]);
      return rows[0] && this.#read(rows[0]);
    };
    return (await this.#heardAll()) ? this.#items.getLater(String(id), read) : read();
  }

  async list({ limit, filters = {}, after = 0 }: PageQuery): Promise<Page> {
    const given = Object.entries(filters);
    const read = async () => {
      const { rows } = await execute<Item>(
        this.#pool,
        this.#page(given.map(([name]) => name)),
        pageParameters('postgres', this.#table, given, after, limit),
      );
      return pageOf(this.#table, rows, limit, this.#read);
    };
    if (!(await this.#heardAll())) return read();
    return this.#pages.getLater(JSON.stringify([given, after, limit]), read);
  }

  /**
   * Whether every change committed before now has been heard, so the caches may answer; else they
   * are passed by. A round trip that PostgreSQL did not answer in time is UnavailableError, as a
   * query would be: reading the table after it would double the request's wait.
   */
  async #heardAll(): Promise<boolean> {
    const changes = this.#changes;
    if (!changes?.listening) return false;
    return changes.heard().then(
      () => true,
      (error: unknown) => {
        if (error instanceof UnavailableError) throw error;
        return false;
      },
    );
  }

  /** A cache's question: has the table changed since you last asked, or could it have unheard? */
  #changeDetector(): () => boolean {
    let seen = -1;
    return () => {
      const changed = this.#changes?.listening !== true || this.#changeCount !== seen;
      seen = this.#changeCount;
      return changed;
    };
  }

  /** The page statement for these filters, built once per store. */
  #page(filterNames: string[]): NamedStatement {
    const key = filterNames.join(',');
    let page = this.#pageStatements.get(key);
    if (!page) {
      page = pageStatement(this.#table, filterNames);
      this.#pageStatements.set(key, page);
    }
    return page;
  }
}

/**
 * The page of `table` filtered by `filterNames` (their values, then the position after which it
 * starts and limit + 1, as parameters): the (filter, position) index yields their items in order.
 */
export function pageStatement(table: CollectionTable, filterNames: readonly string[]): NamedStatement {
  const conditions = filterNames.map(
    (name, index) => `${table.filterIndexes.get(name)?.column ?? name} = $${index + 1}`,
  );
  const after = filterNames.length + 1;
  return {
    name: `${table.name}.page${filterNames.map((name) => `-by-${name}`).join('')}`,
    text: `SELECT ${pageSelectList(table)} FROM ${table.name} WHERE ${[...conditions, `${table.order} > $${after}`].join(' AND ')} ORDER BY ${table.order} LIMIT $${after + 1}`,
  };
}
