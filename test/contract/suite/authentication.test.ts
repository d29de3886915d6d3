import { describe, expect, it } from 'vitest';
import { responseCase } from '../support/cases.ts';
import { type ApiRequest, type ApiResponse, errorCode, expectStatus, send } from '../support/client.ts';
import { validRequest } from '../support/pets.ts';
import { target } from '../support/target.ts';

/** Credentials the service must refuse, each with why. */
const refused: Array<[reason: string, authorization: string | null]> = [
  ['without an Authorization header', null],
  ['with a key the service did not issue', 'Bearer ask_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ['with another scheme than Bearer', 'Basic dXNlcjpwYXNzd29yZA=='],
  ['with a bearer scheme but no token', 'Bearer'],
];

function expectChallenge(response: ApiResponse): void {
  expect(errorCode(response)).toBe('unauthorized');
  expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
}

describe('authentication of every operation', () => {
  for (const [reason, authorization] of refused) {
    responseCase('listPets', 401, `unauthorized ${reason}`, async (call) => {
      expectChallenge(await call({ ...validRequest('listPets'), authorization, example: 'ErrorUnauthorized' }));
    });
    responseCase('createPet', 401, `unauthorized ${reason}`, async (call) => {
      expectChallenge(await call({ ...validRequest('createPet'), authorization, example: 'ErrorUnauthorized' }));
    });
    responseCase('getPet', 401, `unauthorized ${reason}`, async (call) => {
      expectChallenge(await call({ ...validRequest('getPet'), authorization, example: 'ErrorUnauthorized' }));
    });
  }

  it.each(['bearer', 'BEARER', 'bEaReR'])('accepts the scheme name written %s', async (scheme) => {
    const request: ApiRequest = { ...validRequest('listPets'), authorization: `${scheme} ${target.apiKey}` };
    const response = await send('listPets', request);
    expectStatus(request, response, 200);
  });
});
