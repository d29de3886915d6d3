// What the mocks' collections hold by default: every item the contract's examples show.

import { collectionsOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import type { Item } from '../../core/collections/store.ts';

/**
 * For each collection, every item the contract shows in an example of a successful answer of its
 * list or fetch operation (`PetsFirstPage`, `PetFound`...), once per id, in id order; the first
 * example to show an id wins.
 */
export function exampleItems(contract: Contract): Map<string, Item[]> {
  return new Map(
    collectionsOf(contract).map((collection) => {
      const byId = new Map<number, Item>();
      for (const operation of [collection.list, collection.fetch]) {
        for (const [status, response] of Object.entries(operation?.responses ?? {})) {
          if (!status.startsWith('2')) continue;
          for (const example of Object.values(response.examples)) {
            for (const item of [example ?? []].flat() as Item[]) if (!byId.has(item.id)) byId.set(item.id, item);
          }
        }
      }
      return [collection.name, [...byId.values()].sort((a, b) => a.id - b.id)];
    }),
  );
}
