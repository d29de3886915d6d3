import { describe, expect } from 'vitest';
import { responseCase } from '../../support/conformance/cases.ts';
import { errorCode } from '../../support/conformance/client.ts';
import { bodyOperations, exampleRequest } from '../../support/conformance/example-requests.ts';

describe('the request body of every operation that takes one', () => {
  for (const { operationId, maxBodyBytes } of bodyOperations) {
    const { path, json } = exampleRequest(operationId);

    responseCase(
      operationId,
      413,
      `payload_too_large when the body is over its ${maxBodyBytes} bytes, even as valid JSON`,
      async (call) => {
        const body = JSON.stringify(json) + ' '.repeat(maxBodyBytes);
        const response = await call({ path, body, headers: { 'Content-Type': 'application/json' } });
        expect(errorCode(response)).toBe('payload_too_large');
      },
    );

    for (const [reason, headers] of [
      ['the Content-Type is text/plain', { 'Content-Type': 'text/plain' }],
      ['the Content-Type is form data', { 'Content-Type': 'application/x-www-form-urlencoded' }],
      ['the body has no Content-Type', {}],
    ] as const) {
      responseCase(operationId, 415, `unsupported_media_type when ${reason}`, async (call) => {
        const response = await call({ path, body: JSON.stringify(json), headers });
        expect(errorCode(response)).toBe('unsupported_media_type');
      });
    }
  }
});
