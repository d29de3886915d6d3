// Type-level tests, checked by `npm run typecheck` (tsc): each `@ts-expect-error` must meet an
// error. A merge patch's fields are all optional, so only a check of the body as written (not
// inferred) catches a misspelt one, as the NewPet of a create catches it.
import type { AnimalStoreClient } from '../../client/index.ts';

declare const client: AnimalStoreClient;
const path = { petId: 1 };

export const renames = client.PATCH('/pets/{petId}', { params: { path }, body: { name: 'Rex' } });

// @ts-expect-error a misspelt field of a merge patch: PetPatch has no `nmae`
export const misspelt = client.PATCH('/pets/{petId}', { params: { path }, body: { name: 'ok', nmae: 'typo' } });

// @ts-expect-error `lost` is no PetStatus
export const unknownStatus = client.PATCH('/pets/{petId}', { params: { path }, body: { status: 'lost' } });

export const unchangeableField = client.PATCH('/store/orders/{orderId}', {
  params: { path: { orderId: 1 } },
  // @ts-expect-error an order's quantity is not a field OrderPatch has
  body: { quantity: 2 },
});
