import { describe, expect } from 'vitest';
import { responseCase } from '../support/cases.ts';
import { type ApiResponse, errorCode } from '../support/client.ts';
import { validRequest } from '../support/pets.ts';
import { target } from '../support/target.ts';

/** Nothing was done, so the client may send the same request again, a POST too, after the wait. */
function expectServiceUnavailable(response: ApiResponse): void {
  expect(errorCode(response)).toBe('service_unavailable');
  expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
}

describe('when the storage fails', () => {
  responseCase('listPets', 503, 'service_unavailable with Retry-After when pets cannot be read', async (call) => {
    expectServiceUnavailable(await call(validRequest('listPets'), target.storageDown));
  });

  responseCase('createPet', 503, 'service_unavailable with Retry-After when the pet cannot be stored', async (call) => {
    expectServiceUnavailable(await call(validRequest('createPet'), target.storageDown));
  });

  responseCase('getPet', 503, 'service_unavailable with Retry-After when the pet cannot be read', async (call) => {
    expectServiceUnavailable(await call(validRequest('getPet'), target.storageDown));
  });
});
