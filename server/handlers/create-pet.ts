import type { Handler } from '../../core/http-types.ts';
import type { NewPet, PetStore } from '../store/pet-store.ts';

export function createPet(pets: PetStore, collectionPath: string): Handler<'createPet'> {
  return async (c, { body }) => {
    // The validator has filled in the contract's default `status`.
    const pet = await pets.create(body as Required<NewPet>);
    c.header('Location', `${collectionPath}/${pet.id}`);
    return c.json(pet, 201);
  };
}
