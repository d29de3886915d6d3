import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, SWEEP_INTERVAL_MS } from '../../../core/limiter/memory-rate-limiter.ts';
import {
  CONTRACT_BAN,
  DAY,
  fakeClock,
  hitTimes,
  MINUTE,
  planLimits,
  provokeBan,
  T0,
} from '../../support/limiter-fixtures.ts';

const free = planLimits('free');

describe('rate limiter: memory bound', () => {
  it('tracks at most maxBuckets buckets under a flood of distinct addresses', async () => {
    const limiter = createMemoryRateLimiter({ ban: CONTRACT_BAN, clock: fakeClock(), maxBuckets: 1000 });
    for (let i = 0; i < 50_000; i += 1) await limiter.hit(`addr:10.0.${i >> 8}.${i & 255}`, free);

    expect(limiter.stats().buckets).toBeLessThanOrEqual(1000);
  });

  it('keeps the window of a caller that stays active during the flood', async () => {
    const limiter = createMemoryRateLimiter({ ban: CONTRACT_BAN, clock: fakeClock(), maxBuckets: 100 });
    await hitTimes(limiter, 'key:1', free, 30);
    for (let i = 0; i < 1000; i += 1) {
      await limiter.hit(`addr:${i}`, free);
      if (i % 50 === 0) await limiter.hit('key:1', free);
    }

    expect(await limiter.hit('key:1', free)).toMatchObject({ outcome: 'allowed', remaining: 9 });
  });

  it('drops a bucket within a sweep interval after its day window has ended, not before', async () => {
    const clock = fakeClock();
    const limiter = createMemoryRateLimiter({ ban: CONTRACT_BAN, clock });
    for (let i = 0; i < 500; i += 1) await limiter.hit(`addr:${i}`, free);

    clock.set(T0 + DAY - 1);
    await limiter.hit('key:late', free);
    expect(limiter.stats().buckets).toBe(501);

    clock.set(T0 + DAY + SWEEP_INTERVAL_MS);
    await limiter.hit('key:later', free);
    expect(limiter.stats().buckets).toBe(2);
  });

  it('remembers a ban after its bucket was evicted, so the next ban still doubles', async () => {
    const clock = fakeClock();
    const limiter = createMemoryRateLimiter({ ban: CONTRACT_BAN, clock, maxBuckets: 10 });
    await provokeBan(limiter, 'key:1', free);
    clock.advance(15 * MINUTE);
    for (let i = 0; i < 100; i += 1) await limiter.hit(`addr:${i}`, free);

    expect(await provokeBan(limiter, 'key:1', free)).toMatchObject({ outcome: 'key_banned', retryAfter: 30 * 60 });
  });

  it('forgets a ban within a sweep interval after the 24 hours from its start', async () => {
    const clock = fakeClock();
    const limiter = createMemoryRateLimiter({ ban: CONTRACT_BAN, clock });
    await provokeBan(limiter, 'key:1', free);

    clock.set(T0 + DAY - 1);
    await limiter.hit('key:2', free);
    expect(limiter.stats().bans).toBe(1);

    clock.set(T0 + DAY + SWEEP_INTERVAL_MS);
    await limiter.hit('key:2', free);
    expect(limiter.stats()).toEqual({ buckets: 1, bans: 0 });
  });

  it('remembers at most maxBuckets bans, keeping the newest in force', async () => {
    const limiter = createMemoryRateLimiter({ ban: CONTRACT_BAN, clock: fakeClock(), maxBuckets: 5 });
    const limits = { perMinute: 1, perDay: 1 };
    for (let i = 0; i < 20; i += 1) await provokeBan(limiter, `addr:${i}`, limits);

    expect(limiter.stats().bans).toBeLessThanOrEqual(5);
    expect(await limiter.hit('addr:19', limits)).toMatchObject({ outcome: 'key_banned' });
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses maxBuckets %s', (maxBuckets) => {
    expect(() => createMemoryRateLimiter({ ban: CONTRACT_BAN, clock: fakeClock(), maxBuckets })).toThrow(RangeError);
  });
});
