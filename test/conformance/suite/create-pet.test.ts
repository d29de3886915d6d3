import { describe, expect } from 'vitest';
import type { Pet } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { idempotencyCases } from '../../support/conformance/idempotency.ts';
import { createPet, EXAMPLE_NEW_PET, requestFromLink } from '../../support/conformance/pets.ts';
import { defined } from '../../support/defined.ts';

let created = 0;

describe('createPet: POST /pets', () => {
  idempotencyCases('createPet', '/pets', async () => {
    created += 1;
    return { name: `Idem ${created}`, categoryId: 3 };
  });

  responseCase(
    'createPet',
    201,
    'with the stored animal, status available by default, and its Location',
    async (call) => {
      const response = await call({ path: '/pets', json: { name: 'Rex', categoryId: 3 } });
      const pet = response.body as Pet;
      expect(pet.status).toBe('available');
      expect(response.headers.get('Location')).toBe(`/v1/pets/${pet.id}`);
    },
  );

  statefulIt('stores the animal exactly as sent, with the status given', async () => {
    const sent = { name: ' Mittens  the 2nd 🐈 ', categoryId: 9007199254740991, status: 'pending' as const };
    const { pet } = await createPet(sent);
    expect(pet).toEqual({ ...sent, id: expect.any(Number) });
  });

  statefulIt('assigns strictly increasing ids', async () => {
    const { pet: first } = await createPet();
    const { pet: second } = await createPet();
    expect(second.id).toBeGreaterThan(first.id);
  });

  statefulIt('answers the Location with the animal as created', async () => {
    const { pet, response } = await createPet({ ...EXAMPLE_NEW_PET, status: 'sold' });
    const request = requestFromLink(defined(response.headers.get('Location'), 'a Location header on the 201'));
    const fetched = await send('getPet', request);
    expectStatus(request, fetched, 200);
    expect(fetched.body).toEqual(pet);
  });

  // `example` picks the contract's named example on a mock when the case is about a specific one.
  const invalidBodies: Array<[reason: string, body: unknown, example?: string]> = [
    ['name is missing', { categoryId: 3 }],
    ['categoryId is missing', { name: 'Rex' }],
    ['a field is not in NewPet', { name: 'Rex', categoryId: 3, colour: 'brown' }, 'ErrorUnknownField'],
    ['name is empty', { name: '', categoryId: 3 }],
    ['name is longer than 100 characters', { name: 'x'.repeat(101), categoryId: 3 }],
    ['name is only whitespace', { name: ' \t ', categoryId: 3 }],
    ['name holds a control character', { name: 'Re\u0007x', categoryId: 3 }],
    ['name is not a string', { name: 42, categoryId: 3 }],
    ['categoryId is 0', { name: 'Rex', categoryId: 0 }],
    ['categoryId is above 2^53-1', { name: 'Rex', categoryId: 9007199254740992 }],
    ['categoryId is a fraction', { name: 'Rex', categoryId: 1.5 }],
    ['categoryId is a string', { name: 'Rex', categoryId: '3' }],
    ['status is outside the enumeration', { name: 'Rex', categoryId: 3, status: 'lost' }],
    ['the body is an array', [{ name: 'Rex', categoryId: 3 }]],
  ];
  for (const [reason, json, example] of invalidBodies) {
    responseCase('createPet', 400, `validation_failed when ${reason}`, async (call) => {
      const response = await call({ path: '/pets', json, example });
      expect(errorCode(response)).toBe('validation_failed');
    });
  }

  statefulIt.each([
    ['name', { categoryId: 3 }],
    ['categoryId', { name: 'Rex', categoryId: 1.5 }],
    ['colour', { name: 'Rex', categoryId: 3, colour: 'brown' }],
    ['status', { name: 'Rex', categoryId: 3, status: 'lost' }],
  ])('names the offending field `%s` in the message', async (field, json) => {
    const request: ApiRequest = { method: 'POST', path: '/pets', json };
    const response = await send('createPet', request);
    expectStatus(request, response, 400);
    expect((response.body as { message: string }).message).toContain(`\`${field}\``);
  });

  responseCase('createPet', 400, 'malformed_json when the body is not JSON', async (call) => {
    const response = await call({
      path: '/pets',
      body: '{"name": "Rex",',
      headers: { 'Content-Type': 'application/json' },
      example: 'ErrorMalformedJson',
    });
    expect(errorCode(response)).toBe('malformed_json');
  });
});
