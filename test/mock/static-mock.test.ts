import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { fixedLimits, rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { MOCK_PLAN } from '../../mock/app/access.ts';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { responses } from '../support/contract-document.ts';
import { AUTHORIZED, examplePets, exampleValue, expectContractError, headerExample } from '../support/mock.ts';

/** The windows the mock's rate-limit headers count down. */
function mockPlanLimits() {
  return fixedLimits(rateLimitRules(loadContract().document), MOCK_PLAN);
}

describe('startMock with the contract examples', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock();
  });
  afterAll(async () => {
    await mock?.close();
  });

  const request = (path: string, init: RequestInit = {}) =>
    fetch(mock.url + path, { ...init, headers: { ...AUTHORIZED, ...(init.headers as Record<string, string>) } });
  const createPet = (body: string, headers: Record<string, string> = {}) =>
    request('/v1/pets', { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

  describe('listPets', () => {
    it("serves GET /v1/pets with the pets of the contract's examples, in id order, and live rate-limit headers", async () => {
      const response = await request('/v1/pets');

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual(examplePets());
      expect(response.headers.get('X-RateLimit-Limit')).toBe(String(mockPlanLimits().perMinute));
      expect(Number(response.headers.get('X-RateLimit-Reset'))).toBeGreaterThan(Date.now() / 1000);
      expect(response.headers.get('Link')).toBeNull();
    });

    it('answers with another named example when asked with Prefer: example=...', async () => {
      const response = await request('/v1/pets', { headers: { Prefer: 'example=PetsEmpty' } });

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(exampleValue('PetsEmpty'));
    });

    it('answers 429 with the chosen Error example and Retry-After when asked with Prefer: code=429, example=...', async () => {
      const response = await request('/v1/pets', { headers: { Prefer: 'code=429, example=ErrorKeyBanned' } });

      expect(response.headers.get('Retry-After')).toBe(headerExample('Retry-After'));
      expect(await expectContractError(response, 429, 'key_banned')).toEqual(exampleValue('ErrorKeyBanned'));
    });

    it('answers HEAD like GET, without a body', async () => {
      const response = await request('/v1/pets', { method: 'HEAD' });

      expect(response.status).toBe(200);
      expect(response.headers.get('X-RateLimit-Limit')).toBe(String(mockPlanLimits().perMinute));
      expect(await response.text()).toBe('');
    });

    it('lets a browser call it from any origin (CORS preflight)', async () => {
      const response = await fetch(`${mock.url}/v1/pets`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization',
        },
      });

      expect(response.status).toBe(204);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe('http://localhost:5173');
    });
  });

  describe('getPet', () => {
    it("carries the contract's Deprecation, Sunset and successor Link, not Prism's `Deprecation: true`", async () => {
      const response = await request('/v1/pets/42');

      expect(await response.json()).toEqual(exampleValue('PetFound'));
      expect(response.headers.get('Deprecation')).toBe(headerExample('Deprecation'));
      expect(response.headers.get('Sunset')).toBe(headerExample('Sunset'));
      expect(response.headers.get('Link')).toBe(headerExample('Link-Successor'));
    });

    it("answers Prefer: code=404 with the contract's ErrorNotFound body and the operation's headers", async () => {
      const response = await request('/v1/pets/42', { headers: { Prefer: 'code=404' } });

      expect(response.headers.get('Deprecation')).toBe(headerExample('Deprecation'));
      expect(await expectContractError(response, 404, 'not_found')).toEqual(exampleValue('ErrorNotFound'));
    });

    it('answers a Prefer code the operation does not declare with a 400 naming the code and the declared ones', async () => {
      const response = await request('/v1/pets/42', { headers: { Prefer: 'code=418' } });

      const { message } = await expectContractError(response, 400, 'validation_failed');
      expect(message).toContain('418');
      expect(message).toContain(
        responses('getPet')
          .map(([status]) => status)
          .join(', '),
      );
    });
  });

  describe('the probes', () => {
    it.each(['/healthz', '/v1/healthz', '/readyz', '/v1/readyz'])(
      'answers %s without a key (under /v1 too, for tools that take one base URL)',
      async (path) => {
        const response = await fetch(mock.url + path);

        expect(response.status).toBe(200);
        expect(response.headers.get('X-RateLimit-Limit')).toBeNull();
      },
    );
  });

  describe('authentication', () => {
    it.each(['/v1/pets', '/v1/pets/42', '/v1/no-such-thing'])(
      'answers %s without Authorization with 401, the Error body and WWW-Authenticate',
      async (path) => {
        const response = await fetch(mock.url + path);

        expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
        await expectContractError(response, 401, 'unauthorized');
      },
    );
  });

  describe('routing', () => {
    it.each(['/nope', '/v1/nope', '/pets', '/v1/pets/42/photos'])(
      "answers the unknown path %s with 404 and the Error body, not Prism's problem+json",
      async (path) => {
        await expectContractError(await request(path), 404, 'not_found');
      },
    );

    it.each([
      ['DELETE', '/v1/pets'],
      ['PUT', '/v1/pets/42'],
      ['POST', '/v1/pets/42'],
    ])(
      'answers %s %s with 405, the Error body and an Allow listing the methods the contract gives the path',
      async (method, path) => {
        const response = await request(path, { method });

        const allowed = loadContract().match(path)?.path.allow;
        expect(allowed).not.toContain(method);
        expect(response.headers.get('Allow')).toBe(allowed?.join(', '));
        await expectContractError(response, 405, 'method_not_allowed');
      },
    );
  });

  describe('updatePet, from the contract alone', () => {
    const patchPet = (id: number, body: string, contentType = 'application/merge-patch+json') =>
      request(`/v1/pets/${id}`, { method: 'PATCH', headers: { 'Content-Type': contentType }, body });

    it('answers a change of an animal of the examples with the animal as changed and its ETag, keeping nothing', async () => {
      const [pet] = examplePets();
      if (!pet) throw new Error('The contract shows no animal');
      const response = await patchPet(pet.id, JSON.stringify({ name: 'Renamed' }));

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ...pet, name: 'Renamed' });
      expect(response.headers.get('ETag')).toMatch(/^"[0-9a-f]{16}"$/);
      expect(await (await request(`/v1/pets/${pet.id}`)).json()).toEqual(pet);
    });

    it('answers 404 not_found for an id no animal of the examples has', async () => {
      await expectContractError(await patchPet(99999, '{"status":"pending"}'), 404, 'not_found');
    });

    it.each([
      ['text/plain', '{"status":"pending"}', 415, 'unsupported_media_type'],
      ['application/json', '{"status":"pending"}', 415, 'unsupported_media_type'],
      ['application/merge-patch+json', '{"status":', 400, 'malformed_json'],
      ['application/merge-patch+json', '', 400, 'malformed_json'],
      ['application/merge-patch+json', '{}', 400, 'validation_failed'],
    ])('answers a body sent as %s, %j, with %i %s', async (contentType, body, status, code) => {
      const [pet] = examplePets();
      await expectContractError(await patchPet(pet?.id ?? 1, body, contentType), status, code);
    });
  });

  describe('invalid requests', () => {
    it.each([
      ['a limit out of range', () => request('/v1/pets?limit=500'), /limit/],
      ['a petId that is not a number', () => request('/v1/pets/abc'), /petid/i],
    ])(
      'answers %s with 400 validation_failed naming what is wrong, in the message and in details',
      async (_case, send, named) => {
        const { message, details } = await expectContractError(await send(), 400, 'validation_failed');

        expect(message).toMatch(named);
        expect(details?.[0]?.name).toMatch(named);
      },
    );

    it('answers a body that is not application/json with 415', async () => {
      await expectContractError(
        await createPet('name=Rex', { 'Content-Type': 'text/plain' }),
        415,
        'unsupported_media_type',
      );
    });

    it('answers a valid createPet with 201, the pet as sent under the next id, and its Location', async () => {
      const largestId = Math.max(...examplePets().map((pet) => pet.id));

      const response = await createPet(JSON.stringify(exampleValue('NewPetMinimal')));

      expect(response.status).toBe(201);
      const pet = (await response.json()) as { id: number };
      expect(pet).toEqual({ status: 'available', ...(exampleValue('NewPetMinimal') as object), id: pet.id });
      expect(pet.id).toBeGreaterThan(largestId);
      expect(response.headers.get('Location')).toBe(`/v1/pets/${pet.id}`);
    });

    it('checks an Idempotency-Key as the service does, answering 400 invalid_idempotency_key naming it', async () => {
      const response = await createPet(JSON.stringify(exampleValue('NewPetMinimal')), { 'Idempotency-Key': 'a b' });
      const { message } = await expectContractError(response, 400, 'invalid_idempotency_key');
      expect(message).toMatch(/Idempotency-Key/);
    });

    it('answers a create with a valid Idempotency-Key as the contract declares, each time afresh: it keeps nothing', async () => {
      const send = () =>
        createPet(JSON.stringify(exampleValue('NewPetMinimal')), { 'Idempotency-Key': 'static-mock-key' });
      for (const response of [await send(), await send()]) {
        expect(response.status).toBe(201);
        expect(response.headers.get('Idempotent-Replayed')).toBeNull();
      }
    });
  });
});
