// The collection layer on a small contract of another API: a collection whose item requires a
// field the create does not carry and gives no default (a status the service sets).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { collectionsOf, serviceNeeds } from '../../contract/collections.ts';
import { Contract } from '../../contract/contract.ts';
import { collectionHandler } from '../../core/collections/handlers.ts';
import { MemoryCollectionStore } from '../../core/collections/memory-store.ts';
import type { AppEnv } from '../../core/http-types.ts';
import { createCursorCodec } from '../../core/pagination/cursor.ts';

const ticket = {
  type: 'object',
  required: ['id', 'title', 'state'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    state: { type: 'string', enum: ['open', 'closed'] },
  },
};
const contract = new Contract({
  openapi: '3.1.0',
  info: { title: 'Tickets', version: '1.0.0' },
  paths: {
    '/tickets': {
      post: {
        operationId: 'createTicket',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
            },
          },
        },
        responses: { '201': { description: 'Created.', content: { 'application/json': { schema: ticket } } } },
      },
    },
  },
});
const deps = (fillsUnsentFields: boolean) => ({
  contract,
  stores: () => new MemoryCollectionStore([], { keepsCreated: true }),
  cursors: createCursorCodec(new Uint8Array(32), () => new Uint8Array(32)),
  fillsUnsentFields,
});

describe('createTicket, whose item requires a state the create does not carry', () => {
  it('is filled by a mock as Prism would: the first enum member, there being no example', async () => {
    const handler = collectionHandler(deps(true), 'createTicket');
    const app = new Hono<AppEnv>().post('/tickets', (c) =>
      handler ? handler(c, { query: {}, path: {}, body: { title: 'Leak' } } as never) : c.notFound(),
    );

    const response = await app.request('/tickets', { method: 'POST' });

    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: 1, title: 'Leak', state: 'open' });
  });

  it('is refused for the service when its handler is made, saying what the server needs', () => {
    expect(() => collectionHandler(deps(false), 'createTicket')).toThrow(
      /createTicket creates .*`state` is required, but its request body does not carry it .* a `default` in the item schema, or a handler of createTicket/,
    );
    expect(serviceNeeds(contract)).toHaveLength(1);
    expect(collectionsOf(contract)[0]?.setByService).toEqual(['state']);
  });
});
