// What the mocks' collections hold by default, and what `npm run db:seed` stores: every item the
// contract's examples show.

import { collectionsOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import type { Item } from './store.ts';

/**
 * For each collection, every item the contract shows in an example of a successful answer of its
 * list or fetch operation (`PetsFirstPage`, `PetFound`...), once per id, in id order (counted ids)
 * or as shown (random ones); the first example to show an id wins. The mocks know no key lines:
 * the examples of an owned collection (`x-owned-by`) are the one line's there.
 */
export function exampleItems(contract: Contract): Map<string, Item[]> {
  return new Map(
    collectionsOf(contract).map((collection) => {
      const byId = new Map<Item['id'], Item>();
      for (const operation of [collection.list, collection.fetch]) {
        for (const [status, response] of Object.entries(operation?.responses ?? {})) {
          if (!status.startsWith('2')) continue;
          for (const example of Object.values(response.examples)) {
            for (const item of [example ?? []].flat() as Item[]) if (!byId.has(item.id)) byId.set(item.id, item);
          }
        }
      }
      const items = [...byId.values()];
      return [collection.name, collection.id.type === 'integer' ? items.sort((a, b) => +a.id - +b.id) : items];
    }),
  );
}
