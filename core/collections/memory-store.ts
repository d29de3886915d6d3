// A collection kept in process memory: the mocks' data, seeded with the contract's examples. A
// static mock answers a create as stored but keeps nothing, so its answers stay the same all day;
// a stateful one keeps what is created until it is reset.
import type { Collection, WriteKind } from '../../contract/collections.ts';
import { MemoryIdempotencyStore } from '../idempotency/memory-store.ts';
import type { CreateOnceOutcome, IdempotencyClaim, KeptAnswer } from '../idempotency/store.ts';
import { OWNER_FIELD, ownerLimitReached, randomItemId } from './owners.ts';
import { missingReference, referencesOf } from './references.ts';
import {
  type CollectionStore,
  type Item,
  type ItemChange,
  type ItemCheck,
  type ItemId,
  type Page,
  type PageQuery,
  sameItem,
} from './store.ts';

export interface MemoryStoreOptions {
  /** Keep created and changed items, so they are listed and fetched until a reset; answered unsaved by default. */
  keepsCreated?: boolean;
  /** Where creates record their answers to an `Idempotency-Key`: one for all of a mock's collections. */
  idempotency?: MemoryIdempotencyStore;
  /** Told of each item created, changed or removed and kept so (the stateful mock's webhooks); nobody by default. */
  onWrite?: (change: WriteKind, item: Item) => void;
  /** The store of another collection by name, where the items a reference names are looked up. */
  storeOf?: (name: string) => MemoryCollectionStore | undefined;
}

export class MemoryCollectionStore implements CollectionStore {
  readonly #collection: Collection | undefined;
  readonly #storeOf: MemoryStoreOptions['storeOf'];
  readonly #seed: readonly Item[];
  readonly #keepsCreated: boolean;
  readonly #idempotency: MemoryIdempotencyStore;
  readonly #onWrite: MemoryStoreOptions['onWrite'];
  /** The items held, in the order they were stored, each with its position. */
  #items: { position: number; item: Item }[] = [];
  /** The next position, which is also the next id where ids are counted. */
  #next = 1;

  /** `collection`: what the contract says of the items, where the store checks their references. */
  constructor(
    seed: readonly Item[],
    { keepsCreated = false, idempotency = new MemoryIdempotencyStore(), onWrite, storeOf }: MemoryStoreOptions = {},
    collection?: Collection,
  ) {
    this.#collection = collection;
    this.#storeOf = storeOf;
    this.#onWrite = onWrite;
    this.#seed = seed;
    this.#keepsCreated = keepsCreated;
    this.#idempotency = idempotency;
    this.reset();
  }

  /** Back to the seed (a counted id is its position); the ids of items created since are not handed out again. */
  reset(): void {
    this.#items = this.#seed.map((item, index) => ({
      position: typeof item.id === 'number' ? item.id : index + 1,
      item,
    }));
    this.#items.sort((a, b) => a.position - b.position);
    this.#next = Math.max(this.#next, (this.#items.at(-1)?.position ?? 0) + 1);
  }

  async create(fields: Record<string, unknown>): Promise<Item> {
    this.#checkReferences(fields);
    this.#checkOwnerLimit(fields);
    const position = this.#next;
    const identity = this.#collection?.id;
    const created = { id: identity?.type === 'string' ? randomItemId(identity) : position, ...fields };
    this.#next += 1;
    if (this.#keepsCreated) {
      this.#items.push({ position, item: created });
      this.#onWrite?.('created', created);
    }
    return created;
  }

  /** Refuses a create beyond the collection's `x-owner-limit` for the owner it names. */
  #checkOwnerLimit(fields: Record<string, unknown>): void {
    const limit = this.#collection?.ownerLimit;
    const owner = this.#collection?.ownedBy && OWNER_FIELD[this.#collection.ownedBy];
    if (this.#collection === undefined || limit === undefined || owner === undefined) return;
    const owned = this.#items.filter(({ item }) => item[owner] === fields[owner]).length;
    if (owned >= limit.items) throw ownerLimitReached(this.#collection, limit);
  }

  async createOnce(
    fields: Record<string, unknown>,
    claim: IdempotencyClaim,
    answerOf: (item: Item) => KeptAnswer,
  ): Promise<CreateOnceOutcome<Item>> {
    const kept = this.#idempotency.findNow(claim);
    if (kept) return { kept };
    const created = await this.create(fields);
    this.#idempotency.record(claim, answerOf(created));
    return { created };
  }

  async update(id: ItemId, change: ItemChange): Promise<Item | undefined> {
    const index = this.#items.findIndex(({ item }) => item.id === id);
    const entry = this.#items[index];
    if (entry === undefined) return undefined;
    const current = entry.item;
    // Synchronous from the read to the write: no other request's change comes between them.
    const changed: Item = Object.assign({ id }, change(current), { id });
    this.#checkReferences(changed, current);
    if (this.#keepsCreated) {
      this.#items[index] = { position: entry.position, item: changed };
      // A change to what the item was is none, and reported as none.
      if (!sameItem(current, changed)) this.#onWrite?.('updated', changed);
    }
    return changed;
  }

  async delete(id: ItemId, check: ItemCheck): Promise<Item | undefined> {
    const index = this.#items.findIndex(({ item }) => item.id === id);
    const current = this.#items[index]?.item;
    if (current === undefined) return undefined;
    check(current);
    if (this.#keepsCreated) {
      this.#items.splice(index, 1);
      this.#onWrite?.('deleted', current);
    }
    return current;
  }

  /** Whether an item of this id is held now. */
  has(id: ItemId): boolean {
    return this.#items.some(({ item }) => item.id === id);
  }

  /** Refuses a write whose reference names an item its collection does not hold. */
  #checkReferences(fields: Record<string, unknown>, before?: Item): void {
    if (this.#collection === undefined) return;
    for (const reference of referencesOf(this.#collection, fields, before)) {
      if (!this.#storeOf?.(reference.target.name)?.has(reference.id)) throw missingReference(reference);
    }
  }

  async get(id: ItemId): Promise<Item | undefined> {
    return this.#items.find(({ item }) => item.id === id)?.item;
  }

  async list({ limit, filters = {}, after = 0 }: PageQuery): Promise<Page> {
    const wanted = Object.entries(filters);
    const matching = this.#items.filter(
      ({ position, item }) => position > after && wanted.every(([field, value]) => item[field] === value),
    );
    const page = matching.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(({ item }) => item),
      hasMore: matching.length > limit,
      ...(last && { position: last.position }),
    };
  }
}

/**
 * Memory stores for the mocks, one per collection of the contract by name, each with its seed
 * (none where `seeds` has none); a reference is looked up in the store of the collection it names.
 */
export function memoryStores(
  collections: readonly Collection[],
  seeds: ReadonlyMap<string, readonly Item[]>,
  {
    onWrite,
    ...options
  }: Omit<MemoryStoreOptions, 'onWrite' | 'storeOf'> & {
    onWrite?: (collection: Collection, change: WriteKind, item: Item) => void;
  } = {},
): Map<string, MemoryCollectionStore> {
  const stores = new Map<string, MemoryCollectionStore>();
  for (const collection of collections) {
    const store = new MemoryCollectionStore(
      seeds.get(collection.name) ?? [],
      {
        ...options,
        storeOf: (name) => stores.get(name),
        ...(onWrite && { onWrite: (change, item) => onWrite(collection, change, item) }),
      },
      collection,
    );
    stores.set(collection.name, store);
  }
  return stores;
}
