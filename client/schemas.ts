// The contract's schemas under their own names, for code that uses the client.
import type { components } from '../generated/openapi.ts';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
