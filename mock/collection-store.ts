// The static mock's pets: a fixed collection, read as the service reads its own. A pet created
// is answered as stored but not kept, so the static mock's answers stay the same all day, unless
// the collection keeps what is created (the browser mocks' stateful option).
import type { NewPet, Pet, PetPage, PetPageQuery, PetStore } from '../server/store/pet-store.ts';

export class CollectionStore implements PetStore {
  readonly #seed: readonly Pet[];
  readonly #keepsCreated: boolean;
  #pets: Pet[] = [];
  #nextId = 1;

  constructor(pets: readonly Pet[], { keepsCreated = false }: { keepsCreated?: boolean } = {}) {
    this.#seed = [...pets].sort((a, b) => a.id - b.id);
    this.#keepsCreated = keepsCreated;
    this.reset();
  }

  /** Back to the pets it was made with; the ids of pets created since are not handed out again. */
  reset(): void {
    this.#pets = [...this.#seed];
    this.#nextId = Math.max(this.#nextId, (this.#seed.at(-1)?.id ?? 0) + 1);
  }

  async create(pet: Required<NewPet>): Promise<Pet> {
    const { name, categoryId, status } = pet;
    const created = { id: this.#nextId, name, categoryId, status };
    this.#nextId += 1;
    if (this.#keepsCreated) this.#pets.push(created);
    return created;
  }

  async get(id: number): Promise<Pet | undefined> {
    return this.#pets.find((pet) => pet.id === id);
  }

  async list({ limit, status, afterId = 0 }: PetPageQuery): Promise<PetPage> {
    const matching = this.#pets.filter((pet) => pet.id > afterId && (status === undefined || pet.status === status));
    return { pets: matching.slice(0, limit), hasMore: matching.length > limit };
  }
}
