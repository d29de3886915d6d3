// What a mock's collections hold: one set of memory stores for each kind of scenario data (the
// contract's example items, or none), and where creates keep their answers to `Idempotency-Key`s.
import type { Collection, WriteKind } from '../../contract/collections.ts';
import { memoryStores } from '../../core/collections/memory-store.ts';
import type { CollectionStores, Item } from '../../core/collections/store.ts';
import { MemoryIdempotencyStore } from '../../core/idempotency/memory-store.ts';
import type { Scenario } from './scenarios.ts';

export interface MockData {
  /** The stores of one kind of scenario data, by collection name. */
  stores: CollectionStores;
  /** Where a mock that keeps what is created keeps its answers; none for one that keeps nothing. */
  idempotency: MemoryIdempotencyStore | undefined;
}

export interface MockStores {
  of(data: Scenario['data']): MockData;
  /** Every store back to its seed, every kept answer forgotten. */
  reset(): void;
}

/**
 * The stores of `collections` seeded with `seeds` (by collection name), and empty ones of the same collections.
 * A mock that keeps what is created replays a repeated `Idempotency-Key` as the service does; one
 * that keeps nothing answers every create from the contract alike. A mock that keeps what is
 * created starts an owned collection (`x-owned-by`) empty, as a key line starts on the service:
 * the examples are nobody's webhook endpoints, and no event would reach them.
 */
export function mockStores(
  collections: readonly Collection[],
  seeds: ReadonlyMap<string, readonly Item[]>,
  keepsCreated: boolean,
  onWrite?: (collection: Collection, change: WriteKind, item: Item) => void,
): MockStores {
  const dataOf = (seeded: ReadonlyMap<string, readonly Item[]>) => {
    const idempotency = keepsCreated ? new MemoryIdempotencyStore() : undefined;
    const stores = memoryStores(collections, seeded, { keepsCreated, idempotency, onWrite });
    return { stores, idempotency };
  };
  const kept = keepsCreated
    ? new Map([...seeds].filter(([name]) => collections.find((each) => each.name === name)?.ownedBy === undefined))
    : seeds;
  const sets = { examples: dataOf(kept), none: dataOf(new Map()) };
  return {
    of(data) {
      const { stores, idempotency } = sets[data];
      return {
        stores: (name) => {
          const store = stores.get(name);
          if (!store) throw new Error(`The mock holds no collection ${name}.`);
          return store;
        },
        idempotency,
      };
    },
    reset() {
      for (const { stores, idempotency } of Object.values(sets)) {
        for (const store of stores.values()) store.reset();
        idempotency?.clear();
      }
    },
  };
}
