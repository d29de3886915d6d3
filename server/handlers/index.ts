import type { Handlers } from '../../core/http-types.ts';
import type { CursorCodec } from '../../core/pagination/cursor.ts';
import type { ReadinessProbes } from '../../core/readiness.ts';
import type { PetStore } from '../store/pet-store.ts';
import { createPet } from './create-pet.ts';
import { getPet } from './get-pet.ts';
import { getHealth, getReadiness } from './health.ts';
import { listPets } from './list-pets.ts';

export function createHandlers(
  pets: PetStore,
  cursors: CursorCodec,
  basePath: string,
  probes: ReadinessProbes,
): Handlers {
  const collectionPath = `${basePath}/pets`;
  return {
    listPets: listPets(pets, cursors, collectionPath),
    createPet: createPet(pets, collectionPath),
    getPet: getPet(pets),
    getHealth: getHealth(),
    getReadiness: getReadiness(probes),
  };
}
