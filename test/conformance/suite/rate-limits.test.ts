import { describe, expect, it } from 'vitest';
import { responseCase } from '../../support/conformance/cases.ts';
import { type ApiRequest, type ApiResponse, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { exampleRequest, protectedOperationIds } from '../../support/conformance/example-requests.ts';
import {
  BANNED_KEY_INDEX,
  limitedKeyIndex,
  RATE_LIMIT_RULES,
  REFUSALS_BEFORE_BAN,
} from '../../support/conformance/limited-keys.ts';
import { target } from '../../support/conformance/target.ts';
import { defined } from '../../support/defined.ts';

const freePlan = RATE_LIMIT_RULES.plans.free;
if (freePlan === undefined || freePlan === 'per-key')
  throw new Error('The contract has no free plan with fixed limits.');
/** The per-minute limit of the free plan, as the contract's `x-rate-limits` states it. */
const FREE_PER_MINUTE = freePlan.perMinute;
/** The first ban's length. */
const BAN_SECONDS = RATE_LIMIT_RULES.ban.firstBanSeconds;

const rateLimitHeaders = (response: ApiResponse) => ({
  limit: Number(response.headers.get('X-RateLimit-Limit')),
  remaining: Number(response.headers.get('X-RateLimit-Remaining')),
  reset: Number(response.headers.get('X-RateLimit-Reset')),
});

/** Sends allowed requests with `key` until its window has none left; returns their rate-limit headers. */
async function useUpWindow(key: string): Promise<Array<ReturnType<typeof rateLimitHeaders>>> {
  const seen: Array<ReturnType<typeof rateLimitHeaders>> = [];
  const request: ApiRequest = { ...exampleRequest('listPets'), query: { limit: '1' }, authorization: `Bearer ${key}` };
  do {
    const response = await send('listPets', request);
    expectStatus(request, response, 200);
    seen.push(rateLimitHeaders(response));
    expect(seen.length, 'requests allowed in one window').toBeLessThanOrEqual(FREE_PER_MINUTE);
  } while (defined(seen.at(-1), 'the rate-limit headers of the last answer').remaining > 0);
  return seen;
}

/** Each free-plan key is used up once per file and shared by the cases that need it limited. */
const usedUp = new Map<string, Promise<Array<ReturnType<typeof rateLimitHeaders>>>>();
async function limitedKey(index: number): Promise<string> {
  // A target that limits nothing has a key or two; which one a case uses makes no difference.
  if (!target.capabilities.enforcesRateLimits) return defined(target.freePlanKeys[0], 'a free-plan key of the target');
  const key = defined(target.freePlanKeys[index], `free-plan key ${index} of the target`);
  if (!usedUp.has(key)) usedUp.set(key, useUpWindow(key));
  await usedUp.get(key);
  return key;
}

/** The window's numbers are the service's own; a mock repeats the contract's example values. */
function expectRateLimited(response: ApiResponse): void {
  expect(errorCode(response)).toBe('rate_limited');
  if (!target.capabilities.enforcesRateLimits) return;
  const retryAfter = Number(response.headers.get('Retry-After'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers.get('X-RateLimit-Remaining')).toBe('0');
}

/** A test that uses up a window: only a target that refuses requests over their limit has one to use up. */
const limitingIt = it.skipIf(!target.capabilities.enforcesRateLimits);

describe('rate limits of every operation', () => {
  limitingIt(
    `counts each allowed request down in X-RateLimit-Remaining, against the free plan limit of ${FREE_PER_MINUTE} a minute`,
    async () => {
      const key = await limitedKey(0);
      const seen = await defined(usedUp.get(key), 'the rate-limit headers of the used-up window of free-plan key 0');
      expect(seen.map((headers) => headers.limit)).toEqual(Array(FREE_PER_MINUTE).fill(FREE_PER_MINUTE));
      expect(seen.map((headers) => headers.remaining)).toEqual(
        Array.from({ length: FREE_PER_MINUTE }, (_, index) => FREE_PER_MINUTE - 1 - index),
      );
      const now = Date.now() / 1000;
      for (const { reset } of seen) expect(reset).toBeGreaterThan(now);
      for (const { reset } of seen) expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);
    },
  );

  for (const [index, operationId] of protectedOperationIds.entries()) {
    responseCase(
      operationId,
      429,
      'rate_limited with Retry-After once the key has used up its window',
      async (call) => {
        const key = await limitedKey(limitedKeyIndex(index));
        expectRateLimited(
          await call({ ...exampleRequest(operationId), authorization: `Bearer ${key}`, example: 'ErrorRateLimited' }),
        );
      },
    );
  }

  responseCase(
    'listPets',
    429,
    `key_banned for ${BAN_SECONDS / 60} minutes once a limited key has sent more than ${REFUSALS_BEFORE_BAN} requests`,
    async (call) => {
      const key = await limitedKey(BANNED_KEY_INDEX);
      const request: ApiRequest = { ...exampleRequest('listPets'), authorization: `Bearer ${key}` };
      if (target.capabilities.enforcesRateLimits) {
        for (let refusal = 0; refusal < REFUSALS_BEFORE_BAN; refusal++) {
          const response = await send('listPets', request);
          expectStatus(request, response, 429);
          expectRateLimited(response);
        }
      }
      const response = await call({ ...request, example: 'ErrorKeyBanned' });
      expect(errorCode(response)).toBe('key_banned');
      if (target.capabilities.enforcesRateLimits) {
        expect(response.headers.get('X-RateLimit-Remaining')).toBe('0');
        const retryAfter = Number(response.headers.get('Retry-After'));
        expect(retryAfter).toBeGreaterThan(BAN_SECONDS - 5);
        expect(retryAfter).toBeLessThanOrEqual(BAN_SECONDS);
        expect(Number(response.headers.get('X-RateLimit-Reset'))).toBeGreaterThanOrEqual(
          Math.floor(Date.now() / 1000) + retryAfter - 1,
        );
      }
    },
  );
});
