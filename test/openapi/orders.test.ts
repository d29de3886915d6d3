// The store's orders as the product decisions of the third round design them: experimental in
// 1.1.0, paged and filtered like the pets, created `placed`.
import { describe, expect, it } from 'vitest';
import {
  componentSchema,
  header,
  jsonContent,
  keywords,
  namedExamples,
  operation,
  parameter,
  propertyOf,
  requestBody,
  resolve,
  response,
} from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

describe('Order', () => {
  const order = componentSchema('Order');

  it('has an id assigned like the pets’, a petId, a quantity from 1 to 100 and a status', () => {
    expect(keywords(order).required).toEqual(['id', 'petId', 'quantity', 'status']);
    expect(keywords(propertyOf(order, 'id'))).toMatchObject({ type: 'integer', format: 'int64', minimum: 1 });
    expect(resolve(propertyOf(order, 'petId'))).toBe(componentSchema('PetId'));
    expect(keywords(propertyOf(order, 'quantity'))).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('takes the status placed, approved or delivered, and is placed when it is created', () => {
    expect(keywords(propertyOf(order, 'status')).enum).toEqual(['placed', 'approved', 'delivered']);
    expect((propertyOf(order, 'status') as { default?: unknown }).default).toBe('placed');
  });
});

describe('NewOrder', () => {
  const newOrder = componentSchema('NewOrder');

  it('requires petId and quantity and accepts nothing else', () => {
    expect(keywords(newOrder)).toMatchObject({ required: ['petId', 'quantity'], additionalProperties: false });
    expect(Object.keys(keywords(newOrder).properties as object)).toEqual(['petId', 'quantity']);
    expect(accepts(newOrder, { petId: 1, quantity: 1 })).toBe(true);
    expect(accepts(newOrder, { petId: 1, quantity: 1, status: 'approved' })).toBe(false);
    expect(accepts(newOrder, { petId: 1, quantity: 101 })).toBe(false);
  });
});

describe('listOrders', () => {
  it('is GET /store/orders, experimental, in the store group', () => {
    expect(operation('listOrders')).toMatchObject({ method: 'GET', path: '/store/orders' });
    expect(operation('listOrders').operation).toMatchObject({ 'x-stability': 'experimental', tags: ['store'] });
  });

  it('pages exactly as GET /pets does: the same limit and cursor, a Link to the next page', () => {
    for (const name of ['limit', 'cursor']) {
      expect(parameter('listOrders', name)).toBe(parameter('listPets', name));
    }
    expect(header(response('listOrders', '200'), 'Link')?.required ?? false).toBe(false);
  });

  it('filters by an order status', () => {
    expect(resolve(parameter('listOrders', 'status').schema ?? {})).toBe(
      resolve(propertyOf(componentSchema('Order'), 'status')),
    );
  });

  it('answers a JSON array of Order, at most 100 of them', () => {
    const orders = componentSchema('Orders');
    expect(resolve(jsonContent(response('listOrders', '200')).schema ?? {})).toBe(orders);
    expect(keywords(orders)).toMatchObject({ type: 'array', maxItems: 100 });
    expect(resolve(keywords(orders).items as object)).toBe(componentSchema('Order'));
  });
});

describe('createOrder', () => {
  it('is POST /store/orders, experimental, taking a NewOrder', () => {
    expect(operation('createOrder')).toMatchObject({ method: 'POST', path: '/store/orders' });
    expect(operation('createOrder').operation['x-stability']).toBe('experimental');
    const body = requestBody('createOrder');
    if (!body) throw new Error('createOrder takes no body');
    expect(body.required).toBe(true);
    expect(resolve(jsonContent(body).schema ?? {})).toBe(componentSchema('NewOrder'));
  });

  it('answers 201 with the Order and its Location', () => {
    const created = response('createOrder', '201');
    expect(resolve(jsonContent(created).schema ?? {})).toBe(componentSchema('Order'));
    expect(header(created, 'Location')?.required).toBe(true);
  });

  it('documents a petId that names no animal as a 400 validation_failed whose details name petId', () => {
    const examples = namedExamples(jsonContent(response('createOrder', '400')));
    const unknownPet = examples.find(([, example]) => /petId/.test(JSON.stringify(example.value)));
    expect(unknownPet?.[1].value).toMatchObject({
      code: 'validation_failed',
      status: 400,
      details: [{ in: 'body', name: 'petId' }],
    });
  });
});

describe('getOrder', () => {
  it('is GET /store/orders/{orderId}, experimental, answering the Order or a 404', () => {
    expect(operation('getOrder')).toMatchObject({ method: 'GET', path: '/store/orders/{orderId}' });
    expect(operation('getOrder').operation['x-stability']).toBe('experimental');
    expect(resolve(jsonContent(response('getOrder', '200')).schema ?? {})).toBe(componentSchema('Order'));
    expect(resolve(jsonContent(response('getOrder', '404')).schema ?? {})).toBe(componentSchema('Error'));
  });
});
