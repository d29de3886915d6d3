// A collection kept in process memory: the mocks' data, seeded with the contract's examples. A
// static mock answers a create as stored but keeps nothing, so its answers stay the same all day;
// a stateful one keeps what is created until it is reset.
import { MemoryIdempotencyStore } from '../idempotency/memory-store.ts';
import type { CreateOnceOutcome, IdempotencyClaim, KeptAnswer } from '../idempotency/store.ts';
import { type CollectionStore, type Item, type ItemChange, type Page, type PageQuery, sameItem } from './store.ts';

export interface MemoryStoreOptions {
  /** Keep created and changed items, so they are listed and fetched until a reset; answered unsaved by default. */
  keepsCreated?: boolean;
  /** Where creates record their answers to an `Idempotency-Key`: one for all of a mock's collections. */
  idempotency?: MemoryIdempotencyStore;
  /** Told of each item created or changed and kept (the stateful mock's webhooks); nobody by default. */
  onWrite?: (change: 'created' | 'updated', item: Item) => void;
}

export class MemoryCollectionStore implements CollectionStore {
  readonly #seed: readonly Item[];
  readonly #keepsCreated: boolean;
  readonly #idempotency: MemoryIdempotencyStore;
  readonly #onWrite: MemoryStoreOptions['onWrite'];
  #items: Item[] = [];
  #nextId = 1;

  constructor(
    seed: readonly Item[],
    { keepsCreated = false, idempotency = new MemoryIdempotencyStore(), onWrite }: MemoryStoreOptions = {},
  ) {
    this.#onWrite = onWrite;
    this.#seed = [...seed].sort((a, b) => a.id - b.id);
    this.#keepsCreated = keepsCreated;
    this.#idempotency = idempotency;
    this.reset();
  }

  /** Back to the seed; the ids of items created since are not handed out again. */
  reset(): void {
    this.#items = [...this.#seed];
    this.#nextId = Math.max(this.#nextId, (this.#seed.at(-1)?.id ?? 0) + 1);
  }

  async create(fields: Record<string, unknown>): Promise<Item> {
    const created = { id: this.#nextId, ...fields };
    this.#nextId += 1;
    if (this.#keepsCreated) {
      this.#items.push(created);
      this.#onWrite?.('created', created);
    }
    return created;
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

  async update(id: number, change: ItemChange): Promise<Item | undefined> {
    const index = this.#items.findIndex((item) => item.id === id);
    const current = this.#items[index];
    if (current === undefined) return undefined;
    // Synchronous from the read to the write: no other request's change comes between them.
    const changed: Item = Object.assign({ id }, change(current), { id });
    if (this.#keepsCreated) {
      this.#items[index] = changed;
      // A change to what the item was is none, and reported as none.
      if (!sameItem(current, changed)) this.#onWrite?.('updated', changed);
    }
    return changed;
  }

  async get(id: number): Promise<Item | undefined> {
    return this.#items.find((item) => item.id === id);
  }

  async list({ limit, filters = {}, afterId = 0 }: PageQuery): Promise<Page> {
    const wanted = Object.entries(filters);
    const matching = this.#items.filter(
      (item) => item.id > afterId && wanted.every(([field, value]) => item[field] === value),
    );
    return { items: matching.slice(0, limit), hasMore: matching.length > limit };
  }
}

/** Memory stores for the mocks, one per collection name, each with its seed. */
export function memoryStores(
  seeds: ReadonlyMap<string, readonly Item[]>,
  {
    onWrite,
    ...options
  }: Omit<MemoryStoreOptions, 'onWrite'> & {
    onWrite?: (name: string, change: 'created' | 'updated', item: Item) => void;
  } = {},
): Map<string, MemoryCollectionStore> {
  return new Map(
    [...seeds].map(([name, seed]) => [
      name,
      new MemoryCollectionStore(seed, {
        ...options,
        ...(onWrite && { onWrite: (change, item) => onWrite(name, change, item) }),
      }),
    ]),
  );
}
