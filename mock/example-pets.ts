// The collection the mocks hold by default: every pet the contract's examples show.
import type { Contract } from '../contract/index.ts';
import type { Pet } from '../server/store/pet-store.ts';

/**
 * Every pet the contract shows in an example of a successful answer of its pet operations
 * (`PetsFirstPage`, `PetFound`...), once per id, in id order; the first example to show an id wins.
 */
export function examplePets(contract: Contract): Pet[] {
  const byId = new Map<number, Pet>();
  for (const operationId of ['listPets', 'getPet'] as const) {
    const operation = contract.operation(operationId);
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      for (const example of Object.values(response.examples)) {
        for (const pet of [example ?? []].flat() as Pet[]) if (!byId.has(pet.id)) byId.set(pet.id, pet);
      }
    }
  }
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
