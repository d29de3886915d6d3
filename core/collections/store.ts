// What a collection's storage does, whatever the engine: SQLite and PostgreSQL for the service,
// process memory for the mocks. Items are plain JSON objects shaped by the contract's item schema.
import type { CreateOnceOutcome, IdempotencyClaim, KeptAnswer } from '../idempotency/store.ts';

/** A stored item: its fields as the contract names them, and the `id` the store gave it. */
export type Item = { id: number } & Record<string, unknown>;

/** A filter's value, as the list's query parameter gives it. */
export type FilterValue = string | number | boolean;

export interface PageQuery {
  limit: number;
  /** Only items whose field has this value, for each field named; none by default. */
  filters?: Record<string, FilterValue>;
  /** Only items with an id greater than this one: the position a cursor carries. */
  afterId?: number;
}

export interface Page<T extends Item = Item> {
  /** In ascending id order. */
  items: T[];
  /** Whether more items match after the last one of this page. */
  hasMore: boolean;
}

/** A collection's items; `T` is their type where the caller knows it (`CollectionStore<Pet>`). */
export interface CollectionStore<T extends Item = Item> {
  /**
   * Stores an item durably before resolving, and returns it with its new id: starting at 1,
   * increasing, never handed out twice. `fields` holds every field the item stores.
   */
  create(fields: Omit<T, 'id'>): Promise<T>;
  /**
   * Creates the item unless an unexpired answer is kept under the claim's key, and records
   * `answerOf(item)` under it in the same commit as the item: a retry finds both or neither.
   */
  createOnce(
    fields: Omit<T, 'id'>,
    claim: IdempotencyClaim,
    answerOf: (item: T) => KeptAnswer,
  ): Promise<CreateOnceOutcome<T>>;
  get(id: number): Promise<T | undefined>;
  list(query: PageQuery): Promise<Page<T>>;
}

/** The stores of a service's collections, by the collection's name (`pets`, `store_orders`). */
export type CollectionStores = (name: string) => CollectionStore;
