// Type-level tests, checked by `npm run typecheck` (tsc): each `@ts-expect-error` must meet an
// error, so a handler type that stopped rejecting these would fail the typecheck.
import type { Handler, Handlers } from '../../../core/http-types.ts';

const pet = { id: 1, name: 'Rex', categoryId: 3, status: 'available' as const };

export const returnsDeclaredResponse: Handler<'getPet'> = async (c) => c.json(pet, 200);

export const returnsDeclaredError: Handler<'getPet'> = async (c) =>
  c.json({ code: 'not_found' as const, message: 'No animal has the id 1.', status: 404 }, 404);

// @ts-expect-error getPet declares no 201 response
export const returnsUndeclaredStatus: Handler<'getPet'> = async (c) => c.json(pet, 201);

export const returnsWrongBody: Handler<'getPet'> = async (c) =>
  // @ts-expect-error a Pet without `name` is not the body getPet declares for 200
  c.json({ id: 1, categoryId: 3, status: 'available' as const }, 200);

export const returnsValueOutsideEnum: Handler<'createPet'> = async (c) =>
  // @ts-expect-error `lost` is not a PetStatus
  c.json({ ...pet, status: 'lost' as const }, 201);

export const returnsUndocumentedErrorCode: Handler<'getPet'> = async (c) =>
  // @ts-expect-error an Error body with a code the contract does not document
  c.json({ code: 'teapot' as const, message: 'x', status: 404 }, 404);

export const readsTypedInput: Handler<'getPet'> = async (c, { path }) => {
  const id: number = path.petId;
  // @ts-expect-error getPet has no `name` path parameter
  void path.name;
  return c.json({ ...pet, id }, 200);
};

// @ts-expect-error every operation of the contract needs a handler: getPet is missing
export const missingOperation: Handlers = {
  listPets: async (c) => c.json([pet], 200),
  createPet: async (c) => c.json(pet, 201),
};

export const extraOperation: Handlers = {
  listPets: async (c) => c.json([pet], 200),
  createPet: async (c) => c.json(pet, 201),
  getPet: async (c) => c.json(pet, 200),
  // @ts-expect-error no contract has an operation so named
  notAnOperation: async (c) => c.json(pet, 200),
};
