import { describe, expect, it } from 'vitest';
import { allResponses, contract, header, keywords, operations, response } from './contract.ts';
import { accepts } from './schema-validator.ts';

const description = contract.info.description ?? '';

describe('interface §8 rate limits by plan', () => {
  it.each([
    ['Free', '60', '1,000'],
    ['Pro', '300', '10,000'],
    ['Business', '1,000', '100,000'],
    ['Enterprise', 'custom', 'custom'],
  ])('documents the %s plan: %s per minute, %s per day', (plan, perMinute, perDay) => {
    expect(description).toMatch(new RegExp(`\\|\\s*${plan}\\s*\\|\\s*${perMinute}\\s*\\|\\s*${perDay}\\s*\\|`));
  });
});

describe('interface §8 rate limit headers', () => {
  const rateLimitHeaders = allResponses.flatMap((declared) =>
    ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => ({ ...declared, name })),
  );

  it.each(rateLimitHeaders)('$operationId $status declares $name as a required integer', ({ response: declared, name }) => {
    const rateLimitHeader = header(declared, name);
    expect(rateLimitHeader?.required).toBe(true);
    expect(keywords(rateLimitHeader?.schema).type).toBe('integer');
  });
});

describe('interface §8 behaviour when the limit is exceeded', () => {
  it.each(operations)('rule 1: $operationId declares 429 Too Many Requests', ({ operationId }) => {
    expect(() => response(operationId, '429')).not.toThrow();
  });

  it.each(operations)('rule 2 and product decision: $operationId 429 carries Retry-After in whole seconds, at least 1', ({ operationId }) => {
    const retryAfter = header(response(operationId, '429'), 'Retry-After');
    expect(retryAfter?.required).toBe(true);
    expect(keywords(retryAfter?.schema)).toMatchObject({ type: 'integer', minimum: 1 });
    expect(accepts(retryAfter?.schema ?? {}, 0)).toBe(false);
  });

  it('rule 3: warns of the temporary ban and asks clients to back off exponentially', () => {
    expect(description).toMatch(/banned/i);
    expect(description).toMatch(/back off exponentially/i);
  });
});

describe('product decision: rate limits', () => {
  it('documents the two fixed windows per key, per minute and per day', () => {
    expect(description).toMatch(/per-minute and a per-day window/);
  });

  it('documents that the headers describe the window with the fewest requests remaining', () => {
    expect(description).toMatch(/fewest requests remaining/);
  });

  it('documents that callers without a valid key are limited per address with the free plan', () => {
    expect(description).toMatch(/without a valid key are limited per client address with the free plan/);
  });

  it('documents the ban: more than 10 requests while limited, 15 minutes, doubling up to 24 hours', () => {
    expect(description).toMatch(/more than 10 requests while limited/);
    expect(description).toMatch(/15 minutes/);
    expect(description).toMatch(/doubles/);
    expect(description).toMatch(/up to 24 hours/);
  });

  it('documents that a 429 does not count against the window', () => {
    expect(description).toMatch(/429 does not count/);
  });

  it('declares X-RateLimit-Reset as Unix time in whole seconds', () => {
    const reset = header(response('listPets', '200'), 'X-RateLimit-Reset');
    expect(keywords(reset?.schema).type).toBe('integer');
    expect(reset?.description).toMatch(/Unix time/);
  });
});
