import { describe, expect } from 'vitest';
import type { Pet } from '../../../generated/openapi.ts';
import { responseCase, statefulIt } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { createPet, LARGEST_ID } from '../../support/conformance/pets.ts';
import { patchRequest, statePairs, transitionsOf } from '../../support/conformance/updates.ts';

const PET_STATUS = transitionsOf('PetStatus');
const patch = (petId: number, json: unknown, headers?: Record<string, string>) =>
  patchRequest('updatePet', `/pets/${petId}`, json, headers);

async function updatePet(petId: number, json: unknown, headers?: Record<string, string>) {
  const request = patch(petId, json, headers);
  const response = await send('updatePet', request);
  return { request, response };
}

async function fetchPet(petId: number) {
  const request: ApiRequest = { method: 'GET', path: `/pets/${petId}` };
  const response = await send('getPet', request);
  expectStatus(request, response, 200);
  return response;
}

describe('updatePet: PATCH /pets/{petId} (experimental)', () => {
  responseCase('updatePet', 200, 'with the whole animal as changed and its ETag', async (call) => {
    const { pet } = await createPet();
    const response = await call(patch(pet.id, { status: 'pending' }));
    expect(Object.keys(response.body as object).sort()).toEqual(['categoryId', 'id', 'name', 'status']);
    expect(response.headers.get('ETag')).toMatch(/^"[!#-~]*"$/);
  });

  statefulIt('changes only the fields the patch names, and fetches as changed with the same ETag', async () => {
    const { pet } = await createPet({ name: 'Rex', categoryId: 3, status: 'available' });
    const { request, response } = await updatePet(pet.id, { name: 'Max' });
    expectStatus(request, response, 200);
    expect(response.body).toEqual({ ...pet, name: 'Max' });
    const fetched = await fetchPet(pet.id);
    expect(fetched.body).toEqual({ ...pet, name: 'Max' });
    expect(fetched.headers.get('ETag')).toBe(response.headers.get('ETag'));
  });

  statefulIt('sets the status it has again without changing anything, ETag included', async () => {
    const { pet } = await createPet({ name: 'Rex', categoryId: 3, status: 'sold' });
    const before = await fetchPet(pet.id);
    const { request, response } = await updatePet(pet.id, { status: 'sold' });
    expectStatus(request, response, 200);
    expect(response.body).toEqual(pet);
    expect(response.headers.get('ETag')).toBe(before.headers.get('ETag'));
  });

  for (const { from, to, allowed } of statePairs(PET_STATUS)) {
    statefulIt(
      `${allowed ? 'changes' : 'refuses to change, with 409 invalid_transition naming both,'} the status from ${from} to ${to}, as x-transitions ${allowed ? 'allow' : 'do not'}`,
      async () => {
        const { pet } = await createPet({ name: 'Rex', categoryId: 3, status: from as Pet['status'] });
        const { request, response } = await updatePet(pet.id, { status: to });
        expectStatus(request, response, allowed ? 200 : 409);
        if (!allowed) {
          expect(errorCode(response)).toBe('invalid_transition');
          expect((response.body as { message: string }).message).toContain(`\`${from}\``);
          expect((response.body as { message: string }).message).toContain(`\`${to}\``);
        }
        expect((await fetchPet(pet.id)).body).toEqual({ ...pet, status: allowed ? to : from });
      },
    );
  }

  responseCase(
    'updatePet',
    409,
    'invalid_transition for a change of status x-transitions do not allow',
    async (call) => {
      const refused = statePairs(PET_STATUS).find(({ allowed }) => !allowed);
      if (!refused) throw new Error('PetStatus allows every change; no case for 409');
      const { pet } = await createPet({ name: 'Rex', categoryId: 3, status: refused.from as Pet['status'] });
      const response = await call(patch(pet.id, { status: refused.to }));
      expect(errorCode(response)).toBe('invalid_transition');
    },
  );

  statefulIt('makes the change with If-Match naming the current ETag, or *', async () => {
    const { pet } = await createPet();
    const etag = (await fetchPet(pet.id)).headers.get('ETag') ?? '';
    const first = await updatePet(pet.id, { name: 'Max' }, { 'If-Match': etag });
    expectStatus(first.request, first.response, 200);
    const second = await updatePet(pet.id, { name: 'Rex' }, { 'If-Match': '*' });
    expectStatus(second.request, second.response, 200);
  });

  responseCase(
    'updatePet',
    412,
    'precondition_failed when If-Match is not the current ETag, changing nothing',
    async (call) => {
      const { pet } = await createPet();
      const stale = (await updatePet(pet.id, { name: 'First' })).response.headers.get('ETag') ?? '';
      await updatePet(pet.id, { name: 'Second' });
      const response = await call(patch(pet.id, { name: 'Third' }, { 'If-Match': stale }));
      expect(errorCode(response)).toBe('precondition_failed');
    },
  );

  statefulIt('changes nothing when If-Match is stale: the other editor’s change stays', async () => {
    const { pet } = await createPet();
    const stale = (await fetchPet(pet.id)).headers.get('ETag') ?? '';
    await updatePet(pet.id, { name: 'Theirs' });
    const { request, response } = await updatePet(pet.id, { name: 'Mine' }, { 'If-Match': stale });
    expectStatus(request, response, 412);
    expect((await fetchPet(pet.id)).body).toEqual({ ...pet, name: 'Theirs' });
  });

  responseCase('updatePet', 404, 'not_found when no animal has the id', async (call) => {
    const response = await call(patch(LARGEST_ID, { status: 'pending' }));
    expect(errorCode(response)).toBe('not_found');
  });

  const invalidBodies: Array<[reason: string, body: string, code: string, example: string]> = [
    ['the body is {}, which names no field', '{}', 'validation_failed', 'ErrorEmptyPatch'],
    ['the body has a field PetPatch does not have', '{"colour":"brown"}', 'validation_failed', 'ErrorEmptyPatch'],
    ['the body sets a field to null', '{"name":null}', 'validation_failed', 'ErrorEmptyPatch'],
    ['the body is a status PetStatus does not list', '{"status":"lost"}', 'validation_failed', 'ErrorEmptyPatch'],
    ['the body is empty', '', 'malformed_json', 'ErrorMalformedJson'],
    ['the body is not valid JSON', '{"name":', 'malformed_json', 'ErrorMalformedJson'],
  ];
  for (const [reason, body, code, example] of invalidBodies) {
    responseCase('updatePet', 400, `${code} when ${reason}, changing nothing`, async (call) => {
      const { pet } = await createPet();
      const { headers } = patch(pet.id, {});
      const response = await call({ path: `/pets/${pet.id}`, body, headers, example });
      expect(errorCode(response)).toBe(code);
    });
  }

  responseCase('updatePet', 400, 'validation_failed naming the fields to send when the body is {}', async (call) => {
    const { pet } = await createPet();
    const response = await call({ ...patch(pet.id, {}), example: 'ErrorEmptyPatch' });
    expect((response.body as { message: string }).message).toMatch(/names no field; send at least one of `name`/);
  });

  responseCase('updatePet', 400, 'validation_failed when petId is not a canonical positive integer', async (call) => {
    const response = await call({ ...patch(0, { status: 'pending' }), example: 'ErrorInvalidPetId' });
    expect(errorCode(response)).toBe('validation_failed');
  });
});
