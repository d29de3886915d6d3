import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.ts';
import type { AppContext, AppEnv } from '../http-types.ts';
import type { ApiKeyRecord, KeyStore } from '../keys/key-store.ts';
import { PLAN_LIMITS, limitsFor } from '../keys/plans.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';
import { StorageUnavailableError } from '../store/storage-error.ts';
import { bearerToken } from './authenticate.ts';

export interface RateLimitDeps {
  keys: KeyStore;
  limiters: { keys: RateLimiter; addresses: RateLimiter };
  clientAddress: (c: AppContext) => string;
}

/**
 * Identifies the caller and counts the request before any validation or storage work, so a
 * flood costs as little as possible. Without a valid key the caller is its address, on the
 * free plan's limits, so keys cannot be guessed at full speed.
 */
export function rateLimit({ keys, limiters, clientAddress }: RateLimitDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const secret = bearerToken(c.req.header('Authorization'));
    let apiKey: ApiKeyRecord | undefined;
    let lookupFailure: StorageUnavailableError | undefined;
    try {
      apiKey = secret === undefined ? undefined : await keys.findActive(secret);
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
      // A key that cannot be checked counts as no key: the request is still limited (by its
      // address) and still gets its headers, then the 503.
      lookupFailure = error;
    }
    c.set('apiKey', apiKey);
    const decision = apiKey
      ? await limiters.keys.hit(String(apiKey.id), limitsFor(apiKey))
      : await limiters.addresses.hit(clientAddress(c), PLAN_LIMITS.free);

    c.header('X-RateLimit-Limit', String(decision.limit));
    c.header('X-RateLimit-Remaining', String(decision.remaining));
    c.header('X-RateLimit-Reset', String(decision.reset));
    if (decision.outcome === 'allowed') {
      if (lookupFailure) throw lookupFailure;
      return next();
    }

    const caller = apiKey ? 'This API key' : 'This client address';
    const retryAfter = String(decision.retryAfter ?? 1);
    if (decision.outcome === 'key_banned') {
      throw new ApiError(429, 'key_banned', `${caller} is temporarily banned for sending requests while rate limited; retry after ${retryAfter} seconds and back off exponentially.`, { 'Retry-After': retryAfter });
    }
    throw new ApiError(429, 'rate_limited', `${caller} has used up its rate limit of ${decision.limit} requests for the current window; retry after ${retryAfter} seconds.`, { 'Retry-After': retryAfter });
  };
}
