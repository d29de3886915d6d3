/** Requests allowed per window. */
export interface WindowLimits {
  perMinute: number;
  perDay: number;
}

/**
 * The outcome of counting one request for a caller (an API key or, without a valid key, a
 * client address). Times are Unix seconds, rounded up so a client that waits for them is
 * never early.
 */
export interface RateDecision {
  /** 'allowed' counts the request; the two refusals do not. */
  outcome: 'allowed' | 'rate_limited' | 'key_banned';
  /** X-RateLimit-Limit: the limit of the window with the fewest requests remaining (minute on a tie). */
  limit: number;
  /** X-RateLimit-Remaining of that window; 0 when refused. */
  remaining: number;
  /** X-RateLimit-Reset: end of that window, or of the ban. */
  reset: number;
  /** Retry-After in whole seconds (at least 1) when refused. */
  retryAfter?: number;
}

export interface RateLimiter {
  /** Counts one request of `bucket` against its minute and day windows. */
  hit(bucket: string, limits: WindowLimits): Promise<RateDecision>;
}
