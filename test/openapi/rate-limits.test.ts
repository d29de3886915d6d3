// What the limits do is tested against the server and every target of the contract suite; here,
// what the contract declares for clients to read, which no request shows. The probes, outside the
// rate limits, declare none of it: test/openapi/health.test.ts.
import { describe, expect, it } from 'vitest';
import { header, keywords, protectedOperations, protectedResponses, response } from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

describe('rate-limit headers', () => {
  const rateLimitHeaders = protectedResponses.flatMap((declared) =>
    ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => ({ ...declared, name })),
  );

  it.each(rateLimitHeaders)(
    '$operationId $status declares $name as a required integer',
    ({ response: declared, name }) => {
      const rateLimitHeader = header(declared, name);
      expect(rateLimitHeader?.required).toBe(true);
      expect(keywords(rateLimitHeader?.schema).type).toBe('integer');
    },
  );
});

describe('429 Too Many Requests', () => {
  it.each(protectedOperations)('is declared by $operationId', ({ operationId }) => {
    expect(() => response(operationId, '429')).not.toThrow();
  });

  it.each(protectedOperations)(
    'carries Retry-After in whole seconds, at least 1, on $operationId',
    ({ operationId }) => {
      const retryAfter = header(response(operationId, '429'), 'Retry-After');
      expect(retryAfter?.required).toBe(true);
      expect(keywords(retryAfter?.schema)).toMatchObject({ type: 'integer', minimum: 1 });
      expect(accepts(retryAfter?.schema ?? {}, 0)).toBe(false);
    },
  );
});
