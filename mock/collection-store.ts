// The static mock's pets: a fixed collection, read as the service reads its own. A pet created
// is answered as stored but not kept: the static mock's answers stay the same all day.
import type { NewPet, Pet, PetPage, PetPageQuery, PetStore } from '../server/store/pet-store.ts';

export class CollectionStore implements PetStore {
  readonly #pets: readonly Pet[];
  #nextId: number;

  constructor(pets: readonly Pet[]) {
    this.#pets = [...pets].sort((a, b) => a.id - b.id);
    this.#nextId = (this.#pets.at(-1)?.id ?? 0) + 1;
  }

  async create(pet: Required<NewPet>): Promise<Pet> {
    const { name, categoryId, status } = pet;
    const id = this.#nextId;
    this.#nextId += 1;
    return { id, name, categoryId, status };
  }

  async get(id: number): Promise<Pet | undefined> {
    return this.#pets.find((pet) => pet.id === id);
  }

  async list({ limit, status, afterId = 0 }: PetPageQuery): Promise<PetPage> {
    const matching = this.#pets.filter((pet) => pet.id > afterId && (status === undefined || pet.status === status));
    return { pets: matching.slice(0, limit), hasMore: matching.length > limit };
  }
}
