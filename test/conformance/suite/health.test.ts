import { describe, expect, it } from 'vitest';
import { responseCase } from '../../support/conformance/cases.ts';
import { type ApiRequest, type ApiResponse, atOrigin, expectStatus, send } from '../../support/conformance/client.ts';
import { target } from '../../support/conformance/target.ts';
import { response as declared, jsonContent, namedExamples, operation } from '../../support/contract-document.ts';

/** The probes are served beside the API (`/healthz`, not `/v1/healthz`): asked at the origin. */
const probe = (operationId: 'getHealth' | 'getReadiness') => ({ path: operation(operationId).servedPath });

/** Neither key nor rate limit concerns a probe, so its answers carry no window of one. */
function expectNoRateLimitHeaders(response: ApiResponse): void {
  for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
    expect(response.headers.get(name), name).toBeNull();
  }
}

describe('getHealth: GET /healthz', () => {
  responseCase('getHealth', 200, 'alive, without a key and outside the rate limits', async (call) => {
    const response = await call({ ...probe('getHealth'), authorization: null }, atOrigin());
    expect(response.body).toEqual({ status: 'alive' });
    expectNoRateLimitHeaders(response);
  });
});

describe('getReadiness: GET /readyz', () => {
  responseCase('getReadiness', 200, 'ready when the storage and the rate limiter answer', async (call) => {
    const response = await call({ ...probe('getReadiness'), authorization: null }, atOrigin());
    expect(response.body).toEqual({ status: 'ready', checks: { storage: 'ok', limiter: 'ok' } });
    expectNoRateLimitHeaders(response);
  });

  responseCase(
    'getReadiness',
    503,
    'unavailable, storage unavailable, with Retry-After when the storage fails',
    async (call) => {
      const response = await call({ ...probe('getReadiness'), authorization: null }, atOrigin(target.storageDown));
      expect(Number(response.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      expectNoRateLimitHeaders(response);
      if (target.capabilities.preferHeader) {
        // The mock answers the declared 503 (its storage never fails): one of the contract's examples.
        const examples = namedExamples(jsonContent(declared('getReadiness', '503'))).map(
          ([, example]) => example.value,
        );
        expect(examples).toContainEqual(response.body);
      } else {
        expect(response.body).toEqual({ status: 'unavailable', checks: { storage: 'unavailable', limiter: 'ok' } });
      }
    },
  );

  it('ignores a key it is sent, even one the service did not issue', async () => {
    const request: ApiRequest = {
      method: 'GET',
      ...probe('getReadiness'),
      authorization: 'Bearer ask_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    };
    const response = await send('getReadiness', request, atOrigin());
    expectStatus(request, response, 200);
    expectNoRateLimitHeaders(response);
  });
});
