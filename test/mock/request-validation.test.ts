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

const createPet = (json: string): InvalidRequest => ({ method: 'POST', target: '/v1/pets', json });

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
  // createPet: the body, one of each kind of problem at once (the contract suite, which runs on the
  // mock too, holds every body createPet refuses).
  ['three fields of the wrong type or value', createPet('{"name":5,"categoryId":"a","status":"lost"}')],
  ['an unknown field beside a missing one', createPet('{"nme":"Rex","categoryId":3}')],
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
});
