import type { Handlers } from '../http-types.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import type { PetStore } from '../store/pet-store.ts';
import { createPet } from './create-pet.ts';
import { getPet } from './get-pet.ts';
import { listPets } from './list-pets.ts';

export function createHandlers(pets: PetStore, cursors: CursorCodec, basePath: string): Handlers {
  const collectionPath = `${basePath}/pets`;
  return {
    listPets: listPets(pets, cursors, collectionPath),
    createPet: createPet(pets, collectionPath),
    getPet: getPet(pets),
  };
}
