// The tables that hold the contract's collections, derived from it: one table per collection,
// named after its path (`store_orders`), an `id` the engine assigns, one column per field of the
// item schema (`categoryId` in `category_id`), and an index per filter for keyset pages. A
// collection with random ids keeps them in a unique `id` column beside a counted `position` that
// orders its pages; an owned one keeps each item's owner in a column of its own (`key_line`),
// indexed for its owner's pages. Only
// types and presence are stored here: ranges, enums and lengths are the contract's, checked by
// the request validator, so widening an enum or a range needs no migration.
import type { Collection, CollectionField, FieldType } from '../../contract/collections.ts';
import { collectionsOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import { OWNER_FIELD } from '../../core/collections/owners.ts';
import type { Item, Page } from '../../core/collections/store.ts';

export type Engine = 'sqlite' | 'postgres';

/** Tables of the service's own, which no collection may be stored in. */
export const SERVICE_TABLES = [
  'api_keys',
  'settings',
  'schema_migrations',
  'idempotency_keys',
  'webhook_deliveries',
] as const;

/** How each engine stores each kind of field. */
export const COLUMN_TYPES: Record<Engine, Record<FieldType, string>> = {
  sqlite: { integer: 'INTEGER', number: 'REAL', string: 'TEXT', boolean: 'INTEGER', json: 'TEXT' },
  postgres: { integer: 'bigint', number: 'double precision', string: 'text', boolean: 'boolean', json: 'jsonb' },
};

export interface CollectionTable {
  collection: Collection;
  /** The table's name: the collection's. */
  name: string;
  /** The item's fields, and its owner where it has one. */
  fields: CollectionField[];
  /** The column pages are ordered by: `id` where ids are counted, `position` beside random ones. */
  order: 'id' | 'position';
  /** The field that holds each item's owner, where the collection has owners: `keyLine`. */
  owner?: CollectionField;
  /** The index a page filtered by `field` reads, by filter name (the owner too): `pets_status_id` on (status, id). */
  filterIndexes: Map<string, { index: string; column: string }>;
}

/** The table of every collection of the contract; refuses a collection named like a table of the service's own. */
export function collectionTables(contract: Contract): CollectionTable[] {
  return collectionsOf(contract).map((collection) => {
    if ((SERVICE_TABLES as readonly string[]).includes(collection.name)) {
      throw new Error(
        `The collection ${collection.path} would be stored in the table ${collection.name}, which holds the service's own data; rename its path.`,
      );
    }
    const ownerName = collection.ownedBy && OWNER_FIELD[collection.ownedBy];
    const owner: CollectionField | undefined = ownerName && {
      name: ownerName,
      column: ownerName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      type: 'integer',
      required: true,
    };
    const fields = owner ? [...collection.fields, owner] : collection.fields;
    const order = collection.id.type === 'integer' ? 'id' : 'position';
    const columnOf = new Map(fields.map((field) => [field.name, field.column]));
    return {
      collection,
      name: collection.name,
      fields,
      order,
      ...(owner && { owner }),
      filterIndexes: new Map(
        [...(owner ? [owner.name] : []), ...collection.filters].map((filter) => {
          const column = columnOf.get(filter) ?? filter;
          return [filter, { index: `${collection.name}_${column}_${order}`, column }];
        }),
      ),
    };
  });
}

/** `id, name, category_id AS "categoryId", ...`: the item's fields under their contract names. */
export function selectList(table: CollectionTable): string {
  return ['id', ...table.fields.map((field) => `${field.column} AS "${field.name}"`)].join(', ');
}

/** What a page reads: the item's fields, and its `position` beside a random id (as `@position`, a name no field has). */
export function pageSelectList(table: CollectionTable): string {
  return table.order === 'id' ? selectList(table) : `${selectList(table)}, position AS "@position"`;
}

/**
 * The parameters of a page statement (pageQuery, pageStatement): each filter's value as `engine`
 * stores it, the position after which the page starts, and limit + 1: one row beyond the page
 * tells whether another page exists, without counting.
 */
export function pageParameters(
  engine: Engine,
  table: CollectionTable,
  filters: [name: string, value: unknown][],
  after: number,
  limit: number,
): unknown[] {
  return [
    ...filters.map(([name, value]) => {
      const field = table.fields.find((candidate) => candidate.name === name);
      return field ? toColumn(engine, field, value) : value;
    }),
    after,
    limit + 1,
  ];
}

/** The page of `limit` items among `rows` (read by pageSelectList, one more than the page when another follows). */
export function pageOf(table: CollectionTable, rows: Item[], limit: number, read: (row: Item) => Item): Page {
  const hasMore = rows.length > limit;
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  if (table.order === 'id') {
    const items = page.map(read);
    const last = items.at(-1);
    return last ? { items, hasMore, position: last.id as number } : { items, hasMore };
  }
  const items = page.map(({ '@position': _, ...row }) => read(row as Item));
  const last = page.at(-1);
  return last ? { items, hasMore, position: Number(last['@position']) } : { items, hasMore };
}

/** The value an engine stores for `value` of `field`: booleans as 0/1 in SQLite, JSON as text, an absent field as NULL. */
export function toColumn(engine: Engine, field: CollectionField, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (field.type === 'json') return JSON.stringify(value);
  if (field.type === 'boolean' && engine === 'sqlite') return value ? 1 : 0;
  return value;
}

/**
 * Turns rows as an engine returns them into items, where the fields need it: an absent optional
 * field is left out rather than `null`, SQLite's 0/1 becomes a boolean, JSON text a value. For
 * collections of plain required fields (the usual case) rows are items already, and nothing runs.
 */
export function rowReader(engine: Engine, table: CollectionTable): (row: Item) => Item {
  const converted = table.fields.filter(
    (field) => !field.required || field.type === 'json' || (field.type === 'boolean' && engine === 'sqlite'),
  );
  if (converted.length === 0) return (row) => row;
  return (row) => {
    const item: Item = { ...row };
    for (const field of converted) {
      const value = item[field.name];
      if (value === null || value === undefined) delete item[field.name];
      else if (field.type === 'json' && typeof value === 'string') item[field.name] = JSON.parse(value);
      else if (field.type === 'boolean') item[field.name] = value === 1 || value === true;
    }
    return item;
  };
}

/** A field's default as an SQL literal, for a column added to a table that has rows already. */
export function defaultLiteral(engine: Engine, field: CollectionField): string {
  const value = toColumn(engine, field, field.default);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `'${String(value).replaceAll("'", "''")}'${engine === 'postgres' && field.type === 'json' ? '::jsonb' : ''}`;
}

/** A lone UTF-16 surrogate is no character, so UTF-8 cannot hold it: SQLite would silently replace it, PostgreSQL refuse it. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Throws RangeError for a text field no engine can store exactly as given (PostgreSQL's text also holds no NUL). */
export function assertStorable(engine: Engine, table: CollectionTable, fields: Record<string, unknown>): void {
  for (const field of table.fields) {
    const value = fields[field.name];
    if (typeof value !== 'string') continue;
    if (LONE_SURROGATE.test(value)) {
      throw new RangeError(
        `A ${table.collection.noun} ${field.name} with a lone UTF-16 surrogate cannot be stored exactly.`,
      );
    }
    if (engine === 'postgres' && value.includes('\0')) {
      throw new RangeError(
        `A ${table.collection.noun} ${field.name} with U+0000 cannot be stored: PostgreSQL text holds no NUL character.`,
      );
    }
  }
}
