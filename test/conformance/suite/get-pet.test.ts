import type { HeaderObject } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { onTarget, responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { createPet, LARGEST_ID } from '../../support/conformance/pets.ts';
import { target } from '../../support/conformance/target.ts';
import { response as declared, header, resolve } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';

/** The values the contract fixes (as `const`) for the deprecation headers of getPet. */
function deprecationHeaders(): Record<string, string> {
  const ok = declared('getPet', '200');
  return Object.fromEntries(
    ['Deprecation', 'Sunset', 'Link'].map((name) => {
      const schema = defined((header(ok, name) as HeaderObject).schema, `a schema for getPet's ${name} header`);
      return [name, (resolve(schema) as { const: string }).const];
    }),
  );
}

describe('getPet: GET /pets/{petId} (deprecated)', () => {
  responseCase('getPet', 200, 'with the animal of an id the service assigned', async (call) => {
    const { pet } = await createPet();
    const response = await call({ path: `/pets/${pet.id}` });
    expect(Object.keys(response.body as object).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
  });

  statefulIt('returns the animal as it was created', async () => {
    const { pet } = await createPet({ name: 'Goldie', categoryId: 7, status: 'sold' });
    const request: ApiRequest = { method: 'GET', path: `/pets/${pet.id}` };
    const response = await send('getPet', request);
    expectStatus(request, response, 200);
    expect(response.body).toEqual(pet);
  });

  responseCase('getPet', 404, 'not_found when no animal has the id', async (call) => {
    const response = await call({ path: `/pets/${LARGEST_ID}` });
    expect(errorCode(response)).toBe('not_found');
  });

  const invalidIds: Array<[reason: string, petId: string]> = [
    ['zero', '0'],
    ['negative', '-1'],
    ['written with a leading zero', '01'],
    ['written with a sign', '+1'],
    ['a fraction', '1.5'],
    ['an integral value written as a fraction', '1.0'],
    ['in exponent notation', '1e3'],
    ['not a number', 'abc'],
    ['above 2^53-1', '9007199254740992'],
  ];
  for (const [reason, petId] of invalidIds) {
    responseCase('getPet', 400, `validation_failed when petId is ${reason}`, async (call) => {
      const response = await call({ path: `/pets/${encodeURIComponent(petId)}` });
      expect(errorCode(response)).toBe('validation_failed');
    });
  }

  responseCase('getPet', 410, 'gone from the sunset instant on', async (call) => {
    const response = await call({ path: '/pets/1' }, target.afterSunset);
    expect(errorCode(response)).toBe('gone');
  });

  const deprecationHeadersTitle = onTarget(
    'carries the Deprecation, Sunset and successor Link headers on a %s response',
    'declares the Deprecation, Sunset and successor Link headers on the %s answer served for Prefer',
  );
  it.each([
    ['200', async () => `/pets/${(await createPet()).pet.id}`],
    ['404', async () => `/pets/${LARGEST_ID}`],
    ['400', async () => '/pets/abc'],
  ])(deprecationHeadersTitle, async (status, path) => {
    const request: ApiRequest = { method: 'GET', path: await path(), prefer: { code: Number(status) } };
    const response = await send('getPet', request);
    expectStatus(request, response, Number(status));
    const expected = deprecationHeaders();
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, response.headers.get(name)]))).toEqual(
      expected,
    );
    expect(expected).toEqual({
      Deprecation: '@1795219200',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version"',
    });
  });
});
