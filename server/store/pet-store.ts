import type { components } from '../../generated/openapi.ts';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];

export interface PetPageQuery {
  limit: number;
  status?: PetStatus;
  /** Only pets with an id greater than this one; the position a cursor carries. */
  afterId?: number;
}

export interface PetPage {
  pets: Pet[];
  /** Whether more pets match after the last one of this page. */
  hasMore: boolean;
}

/**
 * Where pets live. Asynchronous so that an engine with network round trips (PostgreSQL) can
 * implement it later without touching the handlers.
 */
export interface PetStore {
  /** Stores the pet durably before resolving; `status` must already carry its default. */
  create(pet: Required<NewPet>): Promise<Pet>;
  get(id: number): Promise<Pet | undefined>;
  /** Pets in ascending id order. */
  list(query: PetPageQuery): Promise<PetPage>;
}
