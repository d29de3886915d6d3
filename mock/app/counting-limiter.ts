// Rate-limit headers for a key the mock does not limit: each key's minute window counts down
// and starts again, as the service's would, but no request is ever refused.
import type { Clock } from '../../core/clock.ts';
import type { RateDecision, RateLimiter } from '../../core/limiter/rate-limiter.ts';
import { MINUTE_MS } from '../../core/limiter/rate-policy.ts';

/** Windows of this many keys at most are kept; a mock serves a handful. */
const MOST_BUCKETS = 10_000;

export function countingLimiter(clock: Clock): RateLimiter & { reset(): void } {
  const windows = new Map<string, { startMs: number; count: number }>();
  return {
    async hit(bucket, limits): Promise<RateDecision> {
      const now = clock.now();
      let window = windows.get(bucket);
      if (!window || now >= window.startMs + MINUTE_MS) {
        if (windows.size >= MOST_BUCKETS) windows.clear();
        window = { startMs: now, count: 0 };
        windows.set(bucket, window);
      }
      window.count += 1;
      return {
        outcome: 'allowed',
        limit: limits.perMinute,
        remaining: Math.max(0, limits.perMinute - window.count),
        reset: Math.ceil((window.startMs + MINUTE_MS) / 1000),
      };
    },
    reset: () => windows.clear(),
  };
}
