// The contract module on small documents written here, for the cases the bundled contract does
// not show: other paths and methods, broken references, servers that disagree.
import { describe, expect, it } from 'vitest';
import { Contract } from '../../contract/contract.ts';
import { dereferenced, type JsonObject, type OpenApiDocument, resolveRef } from '../../contract/document.ts';
import { unreadableRequestMediaTypes } from '../../contract/media-types.ts';

const constHeader = (value: string) => ({ schema: { type: 'string', const: value } });
const answer = (headers: JsonObject = {}) => ({ description: 'An answer.', headers });

function documentWith(
  paths: Record<string, JsonObject>,
  servers = [{ url: 'https://api.example.test/v2' }],
): OpenApiDocument {
  return { openapi: '3.1.0', info: { title: 'Test', version: '1.0.0' }, servers, paths };
}

const SHOP = documentWith({
  '/things': {
    get: { operationId: 'listThings', responses: { '200': answer() } },
    post: { operationId: 'addThing', responses: { '201': answer() } },
  },
  '/things/{thingId}': {
    get: {
      operationId: 'getThing',
      deprecated: true,
      'x-sunset': '2031-01-31',
      'x-successor': 'listThings',
      responses: {
        '200': answer({ Sunset: constHeader('Fri, 31 Jan 2031 00:00:00 GMT'), Note: constHeader('only here') }),
        '404': answer({ Sunset: constHeader('Fri, 31 Jan 2031 00:00:00 GMT') }),
      },
    },
    delete: { operationId: 'removeThing', responses: { '204': answer() } },
  },
  '/things/mine': { put: { operationId: 'replaceMine', responses: { '200': answer() } } },
});

describe('Contract', () => {
  const contract = new Contract(SHOP);

  it('serves every operation under the base path its servers share, in the router syntax too', () => {
    expect(contract.basePath).toBe('/v2');
    expect(contract.operation('getThing')).toMatchObject({
      method: 'GET',
      path: '/things/{thingId}',
      servedPath: '/v2/things/{thingId}',
      routePath: '/v2/things/:thingId',
    });
  });

  it('allows HEAD wherever GET, on each path and on each GET operation', () => {
    expect(contract.paths.map((path) => [path.servedPath, path.allow])).toEqual([
      ['/v2/things', ['GET', 'HEAD', 'POST']],
      ['/v2/things/{thingId}', ['DELETE', 'GET', 'HEAD']],
      ['/v2/things/mine', ['PUT']],
    ]);
    expect(contract.operation('listThings').methods).toEqual(['GET', 'HEAD']);
    expect(contract.operation('addThing').methods).toEqual(['POST']);
  });

  it.each([
    ['GET', '/v2/things/42', 'getThing', { thingId: '42' }],
    ['HEAD', '/v2/things/42', 'getThing', { thingId: '42' }],
    ['head', '/v2/things/%34%32', 'getThing', { thingId: '42' }],
    ['DELETE', '/v2/things/%ZZ', 'removeThing', { thingId: '%ZZ' }],
    ['PUT', '/v2/things/mine', 'replaceMine', {}],
  ])(
    'matches %s %s to %s, literal segments first, parameters percent-decoded',
    (method, requestPath, operationId, params) => {
      const match = contract.match(requestPath);
      expect(match?.path.operationFor(method)?.operationId).toBe(operationId);
      expect(match?.params).toEqual(params);
    },
  );

  it.each(['/things', '/v2/things/', '/v2/things/42/parts', '/v2'])('matches no path for %s', (requestPath) => {
    expect(contract.match(requestPath)).toBeUndefined();
  });

  it('finds no operation for a method the path does not allow', () => {
    expect(contract.match('/v2/things/mine')?.path.operationFor('GET')).toBeUndefined();
  });

  it("reads a deprecation: the headers every response declares with one const, the sunset, the successor's path", () => {
    expect(contract.operation('getThing').deprecation).toEqual({
      headers: { Sunset: 'Fri, 31 Jan 2031 00:00:00 GMT' },
      sunsetAt: Date.parse('2031-01-31T00:00:00Z'),
      sunsetDate: '2031-01-31',
      successor: '/v2/things',
    });
    expect(contract.operation('listThings').deprecation).toBeUndefined();
  });

  it('throws for an operation it does not have', () => {
    expect(() => contract.operation('nothing')).toThrow('The contract has no operation nothing');
  });

  it("serves a path under its own servers' base path where the path item names servers", () => {
    const beside = new Contract(
      documentWith({
        ...SHOP.paths,
        '/status': {
          servers: [{ url: '{origin}', variables: { origin: { default: 'https://api.example.test' } } }],
          get: { operationId: 'getStatus', security: [], responses: { '200': answer() } },
        },
        '/v3/other': {
          servers: [{ url: 'http://localhost:3000/' }],
          get: { operationId: 'getOther', responses: { '200': answer() } },
        },
      }),
    );
    expect(beside.basePath).toBe('/v2');
    expect(beside.operation('getStatus')).toMatchObject({ servedPath: '/status', routePath: '/status' });
    expect(beside.operation('getOther').servedPath).toBe('/v3/other');
    expect(beside.operation('listThings').servedPath).toBe('/v2/things');
    expect(beside.match('/status')?.path.operationFor('GET')?.operationId).toBe('getStatus');
    expect(beside.match('/v2/status')).toBeUndefined();
  });

  it('marks public the operations with security: [], and only those', () => {
    const security = new Contract(
      documentWith({
        '/open': { get: { operationId: 'open', security: [], responses: { '200': answer() } } },
        '/keyed': { get: { operationId: 'keyed', security: [{ bearerAuth: [] }], responses: { '200': answer() } } },
        '/inherited': { get: { operationId: 'inherited', responses: { '200': answer() } } },
        '/optional': {
          get: { operationId: 'optional', security: [{}, { bearerAuth: [] }], responses: { '200': answer() } },
        },
      }),
    );
    expect(security.operations.map(({ operationId, isPublic }) => [operationId, isPublic])).toEqual([
      ['open', true],
      ['keyed', false],
      ['inherited', false],
      ['optional', false],
    ]);
  });

  it('reads a deprecated operation without x-sunset, as another document may have one, as having no sunset to serve', () => {
    const other = new Contract(
      documentWith({ '/old': { get: { operationId: 'old', deprecated: true, responses: { '200': answer() } } } }),
    );
    expect(other.operation('old').deprecation).toBeUndefined();
  });

  it('names an operation without an operationId by its method and path', () => {
    const other = new Contract(documentWith({ '/things/{id}': { delete: { responses: { '204': answer() } } } }));
    expect(other.operations.map((operation) => operation.operationId)).toEqual(['DELETE /things/{id}']);
  });

  it.each([
    ['application/json', { 'application/json': { schema: { type: 'object' } } }],
    ['application/merge-patch+json', { 'application/merge-patch+json': { schema: { type: 'object' } } }],
    ['application/json', { 'application/merge-patch+json': {}, 'application/json': { schema: { type: 'object' } } }],
  ])('reads the JSON body of media type %s', (mediaType, content) => {
    const other = new Contract(
      documentWith({ '/things': { patch: { operationId: 'edit', requestBody: { content }, responses: {} } } }),
    );
    expect(other.operation('edit')).toMatchObject({ bodyMediaType: mediaType, bodySchema: { type: 'object' } });
  });

  it('reads every JSON media type of a body, application/json first', () => {
    const content = {
      'application/merge-patch+json': { schema: { type: 'object', minProperties: 1 } },
      'application/json': { schema: { type: 'object' } },
      'text/plain': { schema: { type: 'string' } },
    };
    const other = new Contract(
      documentWith({ '/things': { patch: { operationId: 'edit', requestBody: { content }, responses: {} } } }),
    );
    expect(other.operation('edit').bodies?.map(({ mediaType }) => mediaType)).toEqual([
      'application/json',
      'application/merge-patch+json',
    ]);
    expect(unreadableRequestMediaTypes(other.document)).toEqual([
      expect.stringMatching(
        /^edit \(PATCH \/things\) takes a request body of type text\/plain, which the service cannot read/,
      ),
    ]);
  });

  it('reads no JSON body where the operation takes another media type only', () => {
    const content = { 'text/plain': { schema: { type: 'string' } } };
    const other = new Contract(
      documentWith({ '/things': { post: { operationId: 'note', requestBody: { content }, responses: {} } } }),
    );
    expect(other.operation('note').bodySchema).toBeUndefined();
  });

  it('serves the paths as written when the contract names no server', () => {
    expect(new Contract(documentWith(SHOP.paths, [])).operation('listThings').servedPath).toBe('/things');
  });

  it.each<[string, OpenApiDocument, string]>([
    [
      'servers that disagree on the base path',
      documentWith(SHOP.paths, [{ url: 'https://api.example.test/v2' }, { url: 'http://localhost:3000/v3' }]),
      "The contract's servers disagree on the base path: /v2, /v3",
    ],
    [
      'an x-sunset that is not a date written as text',
      documentWith({
        '/old': { get: { operationId: 'old', deprecated: true, 'x-sunset': 20310131, responses: { '200': answer() } } },
      }),
      'Deprecated operation old lacks x-sunset',
    ],
    [
      'an x-successor that names no operation',
      documentWith({
        '/old': { get: { operationId: 'old', deprecated: true, 'x-sunset': '2031-01-31', 'x-successor': 'gone' } },
      }),
      'The contract has no operation gone',
    ],
  ])('refuses a contract with %s', (_case, document, message) => {
    expect(() => new Contract(document)).toThrow(message);
  });
});

describe('resolveRef', () => {
  const schemas = {
    Name: { type: 'string' },
    Alias: { $ref: '#/components/schemas/Name' },
    'a/b': { type: 'integer' },
  };
  const document = { components: { schemas } };

  it.each([
    ['a node without $ref', { type: 'boolean' }, { type: 'boolean' }],
    ['a reference', { $ref: '#/components/schemas/Name' }, { type: 'string' }],
    ['a reference to a reference', { $ref: '#/components/schemas/Alias' }, { type: 'string' }],
    ['an escaped token', { $ref: '#/components/schemas/a~1b' }, { type: 'integer' }],
  ])('follows %s to the node it stands for', (_case, node, resolved) => {
    expect(resolveRef(document, node)).toEqual(resolved);
  });

  it.each([
    ['a non-local reference', { $ref: 'other.yaml#/Name' }, 'The bundle holds a non-local $ref: other.yaml#/Name'],
    [
      'a reference that leads nowhere',
      { $ref: '#/components/schemas/Nobody' },
      'Unresolvable $ref in the bundle: #/components/schemas/Nobody',
    ],
    ['a circular reference', { $ref: '#/loop/a' }, 'Circular $ref in the bundle: #/loop/a'],
  ])('throws for %s', (_case, node, message) => {
    const looping = { ...document, loop: { a: { $ref: '#/loop/b' }, b: { $ref: '#/loop/a' } } };
    expect(() => resolveRef(looping, node)).toThrow(message);
  });
});

describe('dereferenced', () => {
  const schemas = {
    Id: { type: 'integer', minimum: 1, description: 'An id.' },
    Item: { type: 'object', properties: { id: { $ref: '#/components/schemas/Id' } } },
    Items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
    Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
  };
  const document = { components: { schemas } };

  it('writes every reference out, however deep, leaving the document as it was', () => {
    const before = structuredClone(document);
    expect(dereferenced(document, { $ref: '#/components/schemas/Items' })).toEqual({
      type: 'array',
      items: { type: 'object', properties: { id: schemas.Id } },
    });
    expect(document).toEqual(before);
  });

  it('lets the annotations beside a reference win over its target’s', () => {
    expect(dereferenced(document, { $ref: '#/components/schemas/Id', description: 'The owner.' })).toEqual({
      ...schemas.Id,
      description: 'The owner.',
    });
  });

  it('keeps a constraint beside a reference through allOf, so both apply', () => {
    expect(dereferenced(document, { $ref: '#/components/schemas/Id', maximum: 9 })).toEqual({
      allOf: [schemas.Id],
      maximum: 9,
    });
  });

  it('refuses a schema that contains itself, naming it', () => {
    expect(() => dereferenced(document, { $ref: '#/components/schemas/Tree' })).toThrow(
      '#/components/schemas/Tree contains itself',
    );
  });
});
