import { errorBody } from '../../core/errors.ts';
import type { Handler } from '../../core/http-types.ts';
import type { PetStore } from '../store/pet-store.ts';

export function getPet(pets: PetStore): Handler<'getPet'> {
  return async (c, { path }) => {
    const pet = await pets.get(path.petId);
    if (!pet) return c.json(errorBody(404, 'not_found', `No animal has the id ${path.petId}.`), 404);
    return c.json(pet, 200);
  };
}
