// What a collection's storage does, whatever the engine: SQLite and PostgreSQL for the service,
// process memory for the mocks. Items are plain JSON objects shaped by the contract's item schema.
import type { CreatesOnce } from '../idempotency/store.ts';

/** An item's id: counted up from 1, or random in the form the contract gives it (`we_3kT9…`). */
export type ItemId = number | string;

/** A stored item: its fields as the contract names them, and the `id` the store gave it. */
export type Item = { id: ItemId } & Record<string, unknown>;

/** A filter's value, as the list's query parameter gives it. */
export type FilterValue = string | number | boolean;

export interface PageQuery {
  limit: number;
  /** Only items whose field has this value, for each field named; none by default. */
  filters?: Record<string, FilterValue>;
  /** Only items stored after this position: the one a cursor carries. */
  after?: number;
}

export interface Page<T extends Item = Item> {
  /** In the order they were stored. */
  items: T[];
  /** Whether more items match after the last one of this page. */
  hasMore: boolean;
  /** Where the last item of the page was stored (its id, where ids are counted), for the next page's cursor. */
  position?: number;
}

/**
 * What an update makes of the item as stored: the fields it is to have (every field, not only the
 * changed ones). It runs inside the update's transaction, so no other write comes between the item
 * it read and the one it writes; it throws (an ApiError) to refuse the change, and nothing changes.
 */
export type ItemChange<T extends Item = Item> = (current: T) => Record<string, unknown>;

/**
 * What a delete asks of the item as stored before removing it (its `If-Match`), inside the
 * delete's transaction: it throws (an ApiError) to refuse, and nothing is removed.
 */
export type ItemCheck<T extends Item = Item> = (current: T) => void;

/**
 * A collection's items; `T` is their type where the caller knows it (`CollectionStore<Pet>`). A
 * create stores the item durably before resolving, with its new id, never handed out twice
 * (counted from 1, or random); `fields` holds every field the item stores, its owner's too. A
 * create beyond the collection's `x-owner-limit` is refused in its transaction.
 */
export interface CollectionStore<T extends Item = Item> extends CreatesOnce<T> {
  get(id: ItemId): Promise<T | undefined>;
  list(query: PageQuery): Promise<Page<T>>;
  /**
   * Changes item `id` in one transaction: reads it, asks `change` for its new fields, stores
   * them, and resolves with the item as stored once committed; undefined when no item has the id.
   */
  update(id: ItemId, change: ItemChange<T>): Promise<T | undefined>;
  /**
   * Removes item `id` in one transaction once `check` has passed on it, and resolves with the item
   * as it was, once committed; undefined when no item has the id. Its id is never handed out again.
   */
  delete(id: ItemId, check: ItemCheck<T>): Promise<T | undefined>;
}

/** The stores of a service's collections, by the collection's name (`pets`, `store_orders`). */
export type CollectionStores = (name: string) => CollectionStore;

/**
 * Whether two items, as a store reads them (fields in the same order), hold the same values: an
 * update that changed nothing, which reports no event.
 */
export function sameItem(before: Item, after: Item): boolean {
  return JSON.stringify(before) === JSON.stringify(after);
}
