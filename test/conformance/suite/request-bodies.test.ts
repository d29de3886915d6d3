import { describe, expect } from 'vitest';
import { responseCase } from '../../support/conformance/cases.ts';
import { errorCode } from '../../support/conformance/client.ts';
import { bodyOperations, exampleRequest } from '../../support/conformance/example-requests.ts';

describe('the request body of every operation that takes one', () => {
  for (const { operationId, maxBodyBytes, mediaType } of bodyOperations) {
    const { path, json } = exampleRequest(operationId);

    responseCase(
      operationId,
      413,
      `payload_too_large when the body is over its ${maxBodyBytes} bytes, even as valid JSON`,
      async (call) => {
        const body = JSON.stringify(json) + ' '.repeat(maxBodyBytes);
        const response = await call({ path, body, headers: { 'Content-Type': mediaType } });
        expect(errorCode(response)).toBe('payload_too_large');
      },
    );

    // A JSON body under another JSON type than the declared one (a merge patch sent as plain JSON).
    const otherJson = mediaType === 'application/json' ? 'application/merge-patch+json' : 'application/json';
    for (const [reason, headers] of [
      [`the Content-Type is ${otherJson}, not the declared ${mediaType}`, { 'Content-Type': otherJson }],
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
