import { describe, expect } from 'vitest';
import type { NewOrder, Order } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { idempotencyCases } from '../../support/conformance/idempotency.ts';
import { LARGEST_ID, petOfTheTarget, requestFromLink } from '../../support/conformance/pets.ts';
import { defined } from '../../support/defined.ts';
import { nextLink } from '../../support/link-header.ts';

/** Places an order for an animal created for it, and returns the order as the 201 carried it. */
async function placeOrder(quantity = 1): Promise<{ order: Order; location: string | null }> {
  const pet = await petOfTheTarget();
  const request: ApiRequest = { method: 'POST', path: '/store/orders', json: { petId: pet.id, quantity } };
  const response = await send('createOrder', request);
  expectStatus(request, response, 201);
  return { order: response.body as Order, location: response.headers.get('Location') };
}

describe('listOrders: GET /store/orders (experimental)', () => {
  responseCase('listOrders', 200, 'with a JSON array of at most 20 orders when limit is omitted', async (call) => {
    const response = await call({ path: '/store/orders' });
    expect(Array.isArray(response.body)).toBe(true);
    expect((response.body as unknown[]).length).toBeLessThanOrEqual(20);
  });

  statefulIt('pages through the orders of one status to the end, following rel="next"', async () => {
    const placed = [await placeOrder(), await placeOrder(), await placeOrder()];
    const ids: number[] = [];
    let request: ApiRequest | undefined = {
      method: 'GET',
      path: '/store/orders',
      query: { status: 'placed', limit: '2' },
    };
    while (request) {
      const response = await send('listOrders', request);
      expectStatus(request, response, 200);
      for (const order of response.body as Order[]) {
        expect(order.status).toBe('placed');
        ids.push(order.id);
      }
      const link = nextLink(response);
      request = link === undefined ? undefined : requestFromLink(link);
    }
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining(placed.map(({ order }) => order.id)));
  });

  for (const [reason, query] of [
    ['limit is 101, above the range', { limit: '101' }],
    ['status is a pet status, not an order status', { status: 'sold' }],
  ] as const) {
    responseCase('listOrders', 400, `validation_failed when ${reason}`, async (call) => {
      const response = await call({ path: '/store/orders', query, example: 'ErrorInvalidLimit' });
      expect(errorCode(response)).toBe('validation_failed');
    });
  }

  responseCase('listOrders', 400, 'invalid_cursor for a cursor the service did not issue', async (call) => {
    const response = await call({
      path: '/store/orders',
      query: { cursor: 'eyJhZnRlciI6MjB9.forged' },
      example: 'ErrorInvalidCursor',
    });
    expect(errorCode(response)).toBe('invalid_cursor');
  });
});

describe('createOrder: POST /store/orders (experimental)', () => {
  idempotencyCases('createOrder', '/store/orders', async () => ({ petId: (await petOfTheTarget()).id, quantity: 1 }));

  responseCase('createOrder', 201, 'with the order as stored, placed, and its Location', async (call) => {
    const pet = await petOfTheTarget();
    const response = await call({ path: '/store/orders', json: { petId: pet.id, quantity: 2 } satisfies NewOrder });
    const order = response.body as Order;
    expect(order.status).toBe('placed');
    expect(response.headers.get('Location')).toMatch(/^\/v1\/store\/orders\/[1-9][0-9]*$/);
  });

  statefulIt('stores the order as sent, placed, and answers its Location with it', async () => {
    const { order, location } = await placeOrder(3);
    expect(order).toMatchObject({ quantity: 3, status: 'placed' });
    const request = requestFromLink(defined(location, 'a Location header on the 201'));
    const fetched = await send('getOrder', request);
    expectStatus(request, fetched, 200);
    expect(fetched.body).toEqual(order);
  });

  responseCase(
    'createOrder',
    400,
    'validation_failed naming petId when it names no animal of the store, storing nothing',
    async (call) => {
      const response = await call({
        path: '/store/orders',
        json: { petId: LARGEST_ID, quantity: 1 },
        example: 'ErrorUnknownPet',
      });
      expect(errorCode(response)).toBe('validation_failed');
      expect(response.body).toMatchObject({ details: [{ in: 'body', name: 'petId' }] });
    },
    { state: true },
  );

  for (const [reason, json] of [
    ['quantity is 0', { petId: 1, quantity: 0 }],
    ['quantity is 101', { petId: 1, quantity: 101 }],
    ['petId is missing', { quantity: 1 }],
    ['the body sets the status', { petId: 1, quantity: 1, status: 'approved' }],
  ] as const) {
    responseCase('createOrder', 400, `validation_failed when ${reason}`, async (call) => {
      const response = await call({ path: '/store/orders', json, example: 'ErrorInvalidQuantity' });
      expect(errorCode(response)).toBe('validation_failed');
    });
  }

  responseCase('createOrder', 400, 'malformed_json when the body is not JSON', async (call) => {
    const response = await call({
      path: '/store/orders',
      body: '{"petId": 1,',
      headers: { 'Content-Type': 'application/json' },
      example: 'ErrorMalformedJson',
    });
    expect(errorCode(response)).toBe('malformed_json');
  });
});

describe('getOrder: GET /store/orders/{orderId} (experimental)', () => {
  responseCase('getOrder', 200, 'with the order of an id the service assigned', async (call) => {
    const { order } = await placeOrder();
    const response = await call({ path: `/store/orders/${order.id}` });
    expect(Object.keys(response.body as object).sort()).toEqual(['id', 'petId', 'quantity', 'status']);
  });

  responseCase('getOrder', 404, 'not_found when no order has the id', async (call) => {
    const response = await call({ path: `/store/orders/${LARGEST_ID}` });
    expect(errorCode(response)).toBe('not_found');
  });

  for (const [reason, orderId] of [
    ['zero', '0'],
    ['written with a leading zero', '01'],
    ['not a number', 'abc'],
  ]) {
    responseCase('getOrder', 400, `validation_failed when orderId is ${reason}`, async (call) => {
      const response = await call({ path: `/store/orders/${orderId}` });
      expect(errorCode(response)).toBe('validation_failed');
    });
  }
});
