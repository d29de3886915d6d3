import { describe, expect } from 'vitest';
import { responseCase } from '../../support/conformance/cases.ts';
import { type ApiResponse, errorCode } from '../../support/conformance/client.ts';
import { exampleRequest, protectedOperationIds } from '../../support/conformance/example-requests.ts';
import { target } from '../../support/conformance/target.ts';

/** Nothing was done, so the client may send the same request again, a POST too, after the wait. */
function expectServiceUnavailable(response: ApiResponse): void {
  expect(errorCode(response)).toBe('service_unavailable');
  expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
}

describe('when the storage fails', () => {
  for (const operationId of protectedOperationIds) {
    responseCase(
      operationId,
      503,
      'service_unavailable with Retry-After when its data cannot be read or stored',
      async (call) => {
        expectServiceUnavailable(await call(exampleRequest(operationId), target.storageDown));
      },
    );
  }
});

describe('when the service fails unexpectedly', () => {
  for (const operationId of protectedOperationIds) {
    responseCase(operationId, 500, 'internal_error that discloses nothing of the failure', async (call) => {
      const response = await call(exampleRequest(operationId), target.internalFailure);
      expect(errorCode(response)).toBe('internal_error');
      expect(JSON.stringify(response.body)).not.toMatch(/TypeError|Cannot read/);
    });
  }
});
