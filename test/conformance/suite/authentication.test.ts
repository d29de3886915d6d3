import { describe, expect, it } from 'vitest';
import { responseCase } from '../../support/conformance/cases.ts';
import { type ApiRequest, type ApiResponse, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { exampleRequest, protectedOperationIds } from '../../support/conformance/example-requests.ts';
import { target } from '../../support/conformance/target.ts';

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

/**
 * The credentials tried on the operation at `index`: no header on every operation, and each other
 * reason on every third. Refusals count against the client address's window, which the whole
 * suite shares: one middleware refuses them all, so every reason still meets several operations.
 */
const triedOn = (index: number) =>
  [refused[0], refused[1 + (index % (refused.length - 1))]].flatMap((tried) => (tried ? [tried] : []));

describe('authentication of every operation', () => {
  for (const [index, operationId] of protectedOperationIds.entries()) {
    for (const [reason, authorization] of triedOn(index)) {
      responseCase(operationId, 401, `unauthorized ${reason}`, async (call) => {
        expectChallenge(await call({ ...exampleRequest(operationId), authorization, example: 'ErrorUnauthorized' }));
      });
    }
  }

  it.each(['bearer', 'BEARER', 'bEaReR'])('accepts the scheme name written %s', async (scheme) => {
    const request: ApiRequest = { method: 'GET', path: '/pets', authorization: `${scheme} ${target.apiKey}` };
    const response = await send('listPets', request);
    expectStatus(request, response, 200);
  });
});
