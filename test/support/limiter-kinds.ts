// The limiter implementations the behaviour tests run against: the rules are the same wherever
// the state is kept, so every window and ban test runs once per kind.
import type { Clock } from '../../core/clock.ts';
import { createMemoryRateLimiter } from '../../core/limiter/memory-rate-limiter.ts';
import type { RateLimiter } from '../../core/limiter/rate-limiter.ts';
import type { BanPolicy } from '../../core/limiter/rate-policy.ts';
import { createRedisRateLimiter } from '../../server/limiter/redis-rate-limiter.ts';
import { redisReachable } from '../../support/backing-services.ts';
import { openTestRedis } from './redis-fixtures.ts';

export interface LimiterKind {
  name: string;
  /** True when the kind's backing service cannot be reached here, so its tests are skipped. */
  unavailable: boolean;
  /** Per test; the default unless the kind is slower. */
  timeoutMs: number;
  /** A limiter with no state yet, banning by `ban`; whatever it opens is closed when the test finishes. */
  create(clock: Clock, ban: BanPolicy): Promise<RateLimiter>;
}

export const LIMITER_KINDS: LimiterKind[] = [
  {
    name: 'memory',
    unavailable: false,
    timeoutMs: 5_000,
    create: async (clock, ban) => createMemoryRateLimiter({ clock, ban }),
  },
  {
    name: 'redis',
    unavailable: !(await redisReachable()),
    // Every hit is a round trip: the business plan's day of requests (100,000 as this is written)
    // takes some 15 s.
    timeoutMs: 60_000,
    create: async (clock, ban) => {
      const { redis, prefix } = await openTestRedis();
      return createRedisRateLimiter({ redis, prefix, ban, clock });
    },
  },
];
