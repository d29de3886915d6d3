import { describe, expect } from 'vitest';
import type { Order } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { createPet, LARGEST_ID, listPets } from '../../support/conformance/pets.ts';

const remove = (petId: number | string, headers?: Record<string, string>): ApiRequest => ({
  method: 'DELETE',
  path: `/pets/${petId}`,
  ...(headers && { headers }),
});

async function deletePet(petId: number, headers?: Record<string, string>) {
  const request = remove(petId, headers);
  const response = await send('deletePet', request);
  return { request, response };
}

async function fetchPet(petId: number) {
  return send('getPet', { method: 'GET', path: `/pets/${petId}` });
}

async function placeOrder(petId: number) {
  const request: ApiRequest = { method: 'POST', path: '/store/orders', json: { petId, quantity: 1 } };
  return { request, response: await send('createOrder', request) };
}

describe('deletePet: DELETE /pets/{petId} (experimental)', () => {
  responseCase('deletePet', 204, 'with no body, once the animal is removed', async (call) => {
    const { pet } = await createPet();
    const response = await call(remove(pet.id));
    expect(response.text).toBe('');
  });

  statefulIt('removes the animal from its fetch and from every list, and a second removal is a 404', async () => {
    const { pet } = await createPet();
    const { request, response } = await deletePet(pet.id);
    expectStatus(request, response, 204);
    expect((await fetchPet(pet.id)).status).toBe(404);
    const { pets } = await listPets({ status: pet.status, limit: '100' });
    expect(pets.map(({ id }) => id)).not.toContain(pet.id);
    const again = await deletePet(pet.id);
    expectStatus(again.request, again.response, 404);
  });

  statefulIt('never gives a removed animal’s id to another', async () => {
    const { pet } = await createPet();
    await deletePet(pet.id);
    const { pet: next } = await createPet();
    expect(next.id).toBeGreaterThan(pet.id);
  });

  statefulIt('keeps the orders of a removed animal as they are, and refuses a new order naming it', async () => {
    const { pet } = await createPet();
    const placed = await placeOrder(pet.id);
    expectStatus(placed.request, placed.response, 201);
    const order = placed.response.body as Order;
    await deletePet(pet.id);
    const kept = await send('getOrder', { method: 'GET', path: `/store/orders/${order.id}` });
    expect(kept.body).toEqual(order);
    const refused = await placeOrder(pet.id);
    expectStatus(refused.request, refused.response, 400);
    expect(refused.response.body).toMatchObject({
      code: 'validation_failed',
      details: [{ in: 'body', name: 'petId' }],
    });
  });

  statefulIt('removes the animal with If-Match naming its current ETag, or *', async () => {
    const [first, second] = [(await createPet()).pet, (await createPet()).pet];
    const etag = (await fetchPet(first.id)).headers.get('ETag') ?? '';
    for (const [pet, ifMatch] of [
      [first, etag],
      [second, '*'],
    ] as const) {
      const { request, response } = await deletePet(pet.id, { 'If-Match': ifMatch });
      expectStatus(request, response, 204);
    }
  });

  responseCase(
    'deletePet',
    412,
    'precondition_failed when If-Match is not the current ETag, removing nothing',
    async (call) => {
      const { pet } = await createPet();
      const stale = (await fetchPet(pet.id)).headers.get('ETag') ?? '';
      await send('updatePet', {
        method: 'PATCH',
        path: `/pets/${pet.id}`,
        body: JSON.stringify({ name: 'Changed meanwhile' }),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      const response = await call(remove(pet.id, { 'If-Match': stale }));
      expect(errorCode(response)).toBe('precondition_failed');
    },
  );

  statefulIt('removes nothing when If-Match is stale: the animal is still fetched', async () => {
    const { pet } = await createPet();
    const { request, response } = await deletePet(pet.id, { 'If-Match': '"0000000000000000"' });
    expectStatus(request, response, 412);
    expect((await fetchPet(pet.id)).status).toBe(200);
  });

  responseCase('deletePet', 404, 'not_found when no animal has the id', async (call) => {
    const response = await call(remove(LARGEST_ID));
    expect(errorCode(response)).toBe('not_found');
  });

  responseCase('deletePet', 400, 'validation_failed when petId is not a canonical positive integer', async (call) => {
    const response = await call({ ...remove('007'), example: 'ErrorInvalidPetId' });
    expect(errorCode(response)).toBe('validation_failed');
  });
});
