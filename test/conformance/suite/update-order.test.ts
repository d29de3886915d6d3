import { describe, expect } from 'vitest';
import type { Order } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { LARGEST_ID, petOfTheTarget } from '../../support/conformance/pets.ts';
import { patchRequest, statePairs, stepsBetween, transitionsOf } from '../../support/conformance/updates.ts';
import { defined } from '../../support/defined.ts';

const ORDER_STATUS = transitionsOf('OrderStatus');
const patch = (orderId: number, json: unknown, headers?: Record<string, string>) =>
  patchRequest('updateOrder', `/store/orders/${orderId}`, json, headers);

async function placeOrder(): Promise<Order> {
  const pet = await petOfTheTarget();
  const request: ApiRequest = { method: 'POST', path: '/store/orders', json: { petId: pet.id, quantity: 1 } };
  const response = await send('createOrder', request);
  expectStatus(request, response, 201);
  return response.body as Order;
}

async function updateOrder(orderId: number, json: unknown, headers?: Record<string, string>) {
  const request = patch(orderId, json, headers);
  return { request, response: await send('updateOrder', request) };
}

/** An order brought to `status` by the allowed changes from the status it is placed with. */
async function orderAt(status: string): Promise<Order> {
  const order = await placeOrder();
  const steps = defined(stepsBetween(ORDER_STATUS, order.status, status), `a way from ${order.status} to ${status}`);
  for (const step of steps) {
    const { request, response } = await updateOrder(order.id, { status: step });
    expectStatus(request, response, 200);
  }
  return { ...order, status: status as Order['status'] };
}

describe('updateOrder: PATCH /store/orders/{orderId} (experimental)', () => {
  responseCase('updateOrder', 200, 'with the whole order as changed and its ETag', async (call) => {
    const order = await placeOrder();
    const [next] = ORDER_STATUS.next[order.status] ?? [];
    const response = await call(patch(order.id, { status: next ?? order.status }));
    expect(Object.keys(response.body as object).sort()).toEqual(['id', 'petId', 'quantity', 'status']);
    expect(response.headers.get('ETag')).toMatch(/^"[!#-~]*"$/);
  });

  for (const { from, to, allowed } of statePairs(ORDER_STATUS)) {
    const reachable = stepsBetween(ORDER_STATUS, ORDER_STATUS.states[0] ?? '', from) !== undefined;
    if (!reachable) continue;
    statefulIt(
      `${allowed ? 'changes' : 'refuses to change, with 409 invalid_transition,'} the status from ${from} to ${to}, as x-transitions ${allowed ? 'allow' : 'do not'}`,
      async () => {
        const order = await orderAt(from);
        const { request, response } = await updateOrder(order.id, { status: to });
        expectStatus(request, response, allowed ? 200 : 409);
        if (!allowed) expect(errorCode(response)).toBe('invalid_transition');
        const fetched: ApiRequest = { method: 'GET', path: `/store/orders/${order.id}` };
        const current = await send('getOrder', fetched);
        expect(current.body).toEqual({ ...order, status: allowed ? to : from });
      },
    );
  }

  responseCase('updateOrder', 409, 'invalid_transition for a change x-transitions do not allow', async (call) => {
    const order = await placeOrder();
    const refused = ORDER_STATUS.states.find(
      (state) => state !== order.status && !(ORDER_STATUS.next[order.status] ?? []).includes(state),
    );
    const response = await call(patch(order.id, { status: defined(refused, 'a state placed cannot go to') }));
    expect(errorCode(response)).toBe('invalid_transition');
  });

  responseCase('updateOrder', 412, 'precondition_failed when If-Match is not the current ETag', async (call) => {
    const order = await placeOrder();
    const response = await call(patch(order.id, { status: order.status }, { 'If-Match': '"0000000000000000"' }));
    expect(errorCode(response)).toBe('precondition_failed');
  });

  responseCase('updateOrder', 404, 'not_found when no order has the id', async (call) => {
    const response = await call(patch(LARGEST_ID, { status: 'approved' }));
    expect(errorCode(response)).toBe('not_found');
  });

  for (const [reason, body, code, example] of [
    ['the body is {}', '{}', 'validation_failed', 'ErrorEmptyPatch'],
    [
      'the body changes the quantity, which an order cannot change',
      '{"quantity":2}',
      'validation_failed',
      'ErrorEmptyPatch',
    ],
    ['the body is empty', '', 'malformed_json', 'ErrorMalformedJson'],
  ] as const) {
    responseCase('updateOrder', 400, `${code} when ${reason}`, async (call) => {
      const order = await placeOrder();
      const { headers } = patch(order.id, {});
      const response = await call({ path: `/store/orders/${order.id}`, body, headers, example });
      expect(errorCode(response)).toBe(code);
    });
  }
});
