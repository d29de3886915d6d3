import type { CollectionStore } from '../../../core/collections/store.ts';
import { validationFailed } from '../../../core/errors.ts';
import type { Handler } from '../../../core/http-types.ts';

/**
 * An order names an animal of the store: the one rule of orders the contract cannot state as a
 * schema. Pets are never deleted, so an animal found here still exists when the order is stored.
 */
export function createOrder(store: Handler<'createOrder'>, pets: CollectionStore): Handler<'createOrder'> {
  return async (c, input) => {
    const { petId } = input.body;
    if (!(await pets.get(petId))) {
      const message = `Body field \`petId\` names no animal of the store: no pet has the id ${petId}.`;
      throw validationFailed([{ in: 'body', name: 'petId', message }]);
    }
    return store(c, input);
  };
}
