// What the fuzzer reads of a document beyond the contract module: how a key is sent, which
// schemas identify resources and on which paths they are handed out, which parameters only the
// API issues, and the links its answers declare.
import { describe, expect, it } from 'vitest';
import { Contract } from '../../contract/contract.ts';
import type { JsonObject, OpenApiDocument } from '../../contract/document.ts';
import { readOperations } from '../../fuzz/operations.ts';

const ok = { '200': { description: 'OK.' } };

function documentWith(paths: Record<string, JsonObject>, security?: unknown[]): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Shop', version: '1.0.0' },
    paths,
    ...(security === undefined ? {} : { security }),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        basic: { type: 'http', scheme: 'basic' },
        header: { type: 'apiKey', in: 'header', name: 'X-Key' },
        query: { type: 'apiKey', in: 'query', name: 'key' },
        mutual: { type: 'mutualTLS' },
      },
      schemas: { ThingId: { type: 'integer', minimum: 1 } },
    },
  };
}

describe('readOperations, on security', () => {
  it.each<[string, unknown[] | undefined, boolean, Array<[string, string, string]> | undefined]>([
    ['no security at all', undefined, false, undefined],
    ['security: []', [], false, undefined],
    ['a bearer token', [{ bearer: [] }], true, [['header', 'Authorization', 'Bearer k']]],
    ['basic credentials', [{ basic: [] }], true, [['header', 'Authorization', `Basic ${btoa('k')}`]]],
    [
      'a key in a header and in the query, both',
      [{ header: [], query: [] }],
      true,
      [
        ['header', 'X-Key', 'k'],
        ['query', 'key', 'k'],
      ],
    ],
    ['a scheme it cannot send, then one it can', [{ mutual: [] }, { header: [] }], true, [['header', 'X-Key', 'k']]],
    ['a scheme it cannot send only', [{ mutual: [] }], true, undefined],
    ['an optional key', [{}, { bearer: [] }], false, [['header', 'Authorization', 'Bearer k']]],
  ])('reads %s', (_case, security, requiresKey, placements) => {
    const [operation] = readOperations(
      new Contract(documentWith({ '/things': { get: { operationId: 'list', responses: ok } } }, security)),
    ).all;
    expect(operation?.requiresKey).toBe(requiresKey);
    expect(operation?.keyPlacements?.map((placement) => [placement.in, placement.name, placement.format('k')])).toEqual(
      placements,
    );
  });
});

describe('readOperations, on ids and links', () => {
  const thingId = { $ref: '#/components/schemas/ThingId' };
  const operations = readOperations(
    new Contract(
      documentWith({
        '/things': {
          get: {
            operationId: 'listThings',
            parameters: [
              { name: 'after', in: 'query', schema: { type: 'string' } },
              { name: 'sort', in: 'query', schema: { type: 'string', enum: ['name'] } },
              { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            ],
            responses: {
              '200': {
                description: 'A page.',
                headers: { Link: { schema: { type: 'string' }, example: '</things?sort=name&after=abc>; rel="next"' } },
              },
            },
          },
          post: {
            operationId: 'addThing',
            responses: {
              '201': {
                description: 'Added.',
                links: {
                  Fetch: { operationId: 'getThing', parameters: { thingId: '$response.body#/id' } },
                  Elsewhere: { operationRef: 'https://other.example/openapi.json#/paths/~1x/get' },
                  Same: { operationRef: '#/paths/~1things~1{thingId}/get' },
                },
              },
            },
          },
        },
        '/things/{thingId}': {
          parameters: [{ name: 'thingId', in: 'path', required: true, schema: thingId }],
          get: { operationId: 'getThing', responses: ok },
        },
        '/orders': { get: { operationId: 'listOrders', responses: ok } },
      }),
    ),
  );
  const kind = operations.byId.get('getThing')?.parameters[0]?.resolved as object;

  it('takes the schema of a path parameter for a kind of id, handed out on the paths of its resource only', () => {
    expect(operations.identifiers.has(kind)).toBe(true);
    expect(operations.handsOut(kind, '/things')).toBe(true);
    expect(operations.handsOut(kind, '/things/{thingId}')).toBe(true);
    expect(operations.handsOut(kind, '/orders')).toBe(false);
  });

  it('takes a plain string the operation’s declared links carry for a value only the API issues, and leaves an array parameter out', () => {
    const parameters = operations.byId.get('listThings')?.parameters ?? [];
    expect(parameters.map(({ name, issuedByApi }) => [name, issuedByApi])).toEqual([
      ['after', true],
      ['sort', false],
    ]);
  });

  it('reads the links of an answer, by operationId or by a reference into the document, and leaves one into another', () => {
    expect(operations.byId.get('addThing')?.links['201']).toEqual([
      { name: 'Fetch', operationId: 'getThing', parameters: { thingId: '$response.body#/id' } },
      { name: 'Same', operationId: 'getThing', parameters: {} },
    ]);
  });
});
