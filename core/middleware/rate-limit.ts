import type { MiddlewareHandler } from 'hono';
import { fixedLimits, type RateLimitRules } from '../../contract/rate-limit-rules.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../generated/rules.ts';
import type { Clock } from '../clock.ts';
import { errors, UnavailableError } from '../errors.ts';
import type { AppContext, AppEnv } from '../http-types.ts';
import { limitsFor } from '../keys/plans.ts';
import type { RateDecision, RateLimiter, WindowLimits } from '../limiter/rate-limiter.ts';
import { setHeader } from './answer-headers.ts';

export interface RateLimitDeps {
  limiters: { keys: RateLimiter; addresses: RateLimiter };
  clock: Clock;
  clientAddress: (c: AppContext) => string;
  /** The contract's plans and the plan of requests without a valid key. */
  rules: RateLimitRules;
}

/**
 * Counts the request against the caller's windows before any validation or storage work, so a
 * flood costs as little as possible, and tells the caller where it stands on every answer. A
 * caller without a valid key is counted by its address on the limits of the contract's key-less
 * plan, so keys cannot be guessed at full speed.
 */
export function rateLimit({ limiters, clientAddress, rules, clock }: RateLimitDeps): MiddlewareHandler<AppEnv> {
  const withoutKey = fixedLimits(rules, rules.withoutKey);
  // No window can be read: the headers promise no request until the 503's Retry-After.
  const unavailableHeaders = (c: AppContext, limits: WindowLimits) => {
    setHeader(c, 'X-RateLimit-Limit', String(limits.perMinute));
    setHeader(c, 'X-RateLimit-Remaining', '0');
    setHeader(c, 'X-RateLimit-Reset', String(Math.ceil(clock.now() / 1000) + UNAVAILABLE_RETRY_AFTER_SECONDS));
  };
  return async (c, next) => {
    const { apiKey, lookupFailure } = c.get('caller');
    if (lookupFailure !== undefined) {
      // The key could not be checked: counting it against the caller's address (the key-less
      // plan) would limit and then ban a paying key, and every client behind the same balancer,
      // for the service's own outage. The request is refused and counted against nothing.
      if (lookupFailure instanceof UnavailableError) unavailableHeaders(c, withoutKey);
      throw lookupFailure;
    }
    const limits = apiKey ? limitsFor(apiKey, rules) : withoutKey;
    let decision: RateDecision;
    try {
      decision = apiKey
        ? await limiters.keys.hit(String(apiKey.lineage), limits)
        : await limiters.addresses.hit(clientAddress(c), limits);
    } catch (error) {
      if (error instanceof UnavailableError) unavailableHeaders(c, limits);
      throw error;
    }

    setHeader(c, 'X-RateLimit-Limit', String(decision.limit));
    setHeader(c, 'X-RateLimit-Remaining', String(decision.remaining));
    setHeader(c, 'X-RateLimit-Reset', String(decision.reset));
    if (decision.outcome === 'allowed') return next();

    const refusal = decision.outcome === 'key_banned' ? errors.banned : errors.rateLimited;
    throw refusal(apiKey ? 'key' : 'address', decision.retryAfter ?? 1);
  };
}
