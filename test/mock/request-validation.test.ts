// The mock's front validates requests with the contract module's validator, as the server does,
// so an invalid request gets the same status and the same Error body from both, to the word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { type RealServer, startRealServer } from '../support/conformance/real-server.ts';
import { AUTHORIZED } from '../support/mock.ts';

interface InvalidRequest {
  method?: string;
  /** Path and query under the origin. */
  target: string;
  /** Sent as `application/json`, exactly as written. */
  json?: string;
}

interface Outcome {
  status: number;
  /** The parsed Error body; undefined for a HEAD, which has none. */
  body: unknown;
}

const NEW_PET = { name: 'Rex', categoryId: 3 };
const createPet = (json: string): InvalidRequest => ({ method: 'POST', target: '/v1/pets', json });
const createPetWith = (fields: Record<string, unknown>): InvalidRequest =>
  createPet(JSON.stringify({ ...NEW_PET, ...fields }));

const INVALID_REQUESTS: Array<[string, InvalidRequest]> = [
  // listPets: query parameters.
  ['limit below its range', { target: '/v1/pets?limit=0' }],
  ['limit above its range', { target: '/v1/pets?limit=101' }],
  ['limit that is not a number', { target: '/v1/pets?limit=ten' }],
  ['limit that is a fraction', { target: '/v1/pets?limit=1.5' }],
  ['limit with a leading zero', { target: '/v1/pets?limit=010' }],
  ['limit given twice', { target: '/v1/pets?limit=1&limit=2' }],
  ['limit given empty', { target: '/v1/pets?limit=' }],
  ['status outside the enumeration', { target: '/v1/pets?status=lost' }],
  ['status in the wrong case', { target: '/v1/pets?status=SOLD' }],
  ['limit and status both wrong', { target: '/v1/pets?status=lost&limit=500' }],
  ['limit wrong, with HEAD', { method: 'HEAD', target: '/v1/pets?limit=0' }],
  // getPet: the path parameter.
  ['petId 0', { target: '/v1/pets/0' }],
  ['petId that is not a number', { target: '/v1/pets/abc' }],
  ['petId with a leading zero', { target: '/v1/pets/01' }],
  ['petId with a sign', { target: '/v1/pets/%2B1' }],
  ['petId above 2^53-1', { target: '/v1/pets/9007199254740992' }],
  // createPet: the body.
  ['three fields of the wrong type or value', createPet('{"name":5,"categoryId":"a","status":"lost"}')],
  ['an unknown field beside a missing one', createPet('{"nme":"Rex","categoryId":3}')],
  ['two unknown fields', createPetWith({ colour: 'red', size: 2 })],
  ['both required fields missing', createPet('{}')],
  ['an empty name', createPetWith({ name: '' })],
  ['a name of 101 characters', createPetWith({ name: 'x'.repeat(101) })],
  ['a name with a control character', createPetWith({ name: 'Re\u0007x' })],
  ['a name of white space only', createPetWith({ name: ' \t ' })],
  ['a name with an unpaired surrogate escape', createPet('{"name":"\\ud800","categoryId":3}')],
  ['categoryId 0', createPetWith({ categoryId: 0 })],
  ['categoryId above 2^53-1', createPet('{"name":"Rex","categoryId":9007199254740992}')],
  ['categoryId that is a fraction', createPetWith({ categoryId: 1.5 })],
  ['categoryId that is a string', createPetWith({ categoryId: '3' })],
  ['status outside the enumeration', createPetWith({ status: 'lost' })],
  ['a body that is an array', createPet(JSON.stringify([NEW_PET]))],
  ['a body that is a string', createPet('"Rex"')],
  ['a body that is null', createPet('null')],
];

async function outcomeOf(
  origin: string,
  authorization: string,
  { method = 'GET', target, json }: InvalidRequest,
): Promise<Outcome> {
  const headers = { Authorization: authorization, ...(json !== undefined && { 'Content-Type': 'application/json' }) };
  const response = await fetch(origin + target, { method, headers, body: json });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe("startMock and the server on requests the contract's validator refuses", () => {
  let mock: RunningMock;
  let server: RealServer;
  beforeAll(async () => {
    [mock, server] = await Promise.all([startMock(), startRealServer()]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), server?.close()]);
  });

  it.each(INVALID_REQUESTS)(
    'answer %s with the same status and Error body, details included',
    async (_case, request) => {
      const fromServer = await outcomeOf(server.origin, `Bearer ${server.apiKey}`, request);

      expect(fromServer.status).toBe(400);
      if (request.method !== 'HEAD')
        expect(fromServer.body).toMatchObject({ code: 'validation_failed', details: expect.any(Array) });
      expect(await outcomeOf(mock.url, AUTHORIZED.Authorization, request)).toEqual(fromServer);
    },
  );

  it('names every field at fault, in the order of the schema, and the first in the message', async () => {
    const { body } = await outcomeOf(
      mock.url,
      AUTHORIZED.Authorization,
      createPet('{"status":"lost","categoryId":"a","name":5}'),
    );

    expect(body).toEqual({
      code: 'validation_failed',
      message: 'Body field `name` must be a string.',
      status: 400,
      details: [
        { in: 'body', name: 'name', message: 'Body field `name` must be a string.' },
        { in: 'body', name: 'categoryId', message: 'Body field `categoryId` must be an integer.' },
        { in: 'body', name: 'status', message: 'Body field `status` must be one of `available`, `pending`, `sold`.' },
      ],
    });
  });
});
