import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, SWEEP_INTERVAL_MS } from '../../../core/limiter/memory-rate-limiter.ts';
import { DAY, fakeClock, hitTimes, provokeBan, SMALL_LIMITS, T0, TEST_BAN } from '../../support/limiter-fixtures.ts';

describe('rate limiter: memory bound', () => {
  it('tracks at most maxBuckets buckets under a flood of distinct addresses', async () => {
    const limiter = createMemoryRateLimiter({ ban: TEST_BAN, clock: fakeClock(), maxBuckets: 1000 });
    for (let i = 0; i < 50_000; i += 1) await limiter.hit(`addr:10.0.${i >> 8}.${i & 255}`, SMALL_LIMITS);

    expect(limiter.stats().buckets).toBeLessThanOrEqual(1000);
  });

  it('keeps the window of a caller that stays active during the flood', async () => {
    const limiter = createMemoryRateLimiter({ ban: TEST_BAN, clock: fakeClock(), maxBuckets: 100 });
    const limits = { perMinute: 100, perDay: 1000 };
    await hitTimes(limiter, 'key:1', limits, 30);
    for (let i = 0; i < 1000; i += 1) {
      await limiter.hit(`addr:${i}`, limits);
      if (i % 50 === 0) await limiter.hit('key:1', limits);
    }

    // 30 before the flood, 20 during it and this one: 49 of the 100 are left.
    expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'allowed', remaining: 49 });
  });

  it('drops a bucket within a sweep interval after its day window has ended, not before', async () => {
    const clock = fakeClock();
    const limiter = createMemoryRateLimiter({ ban: TEST_BAN, clock });
    for (let i = 0; i < 500; i += 1) await limiter.hit(`addr:${i}`, SMALL_LIMITS);

    clock.set(T0 + DAY - 1);
    await limiter.hit('key:late', SMALL_LIMITS);
    expect(limiter.stats().buckets).toBe(501);

    clock.set(T0 + DAY + SWEEP_INTERVAL_MS);
    await limiter.hit('key:later', SMALL_LIMITS);
    expect(limiter.stats().buckets).toBe(2);
  });

  it('remembers a ban after its bucket was evicted, so the next ban still doubles', async () => {
    const clock = fakeClock();
    const limiter = createMemoryRateLimiter({ ban: TEST_BAN, clock, maxBuckets: 10 });
    await provokeBan(limiter, 'key:1', SMALL_LIMITS, TEST_BAN);
    clock.advance(TEST_BAN.firstBanMs);
    for (let i = 0; i < 100; i += 1) await limiter.hit(`addr:${i}`, SMALL_LIMITS);

    expect(await provokeBan(limiter, 'key:1', SMALL_LIMITS, TEST_BAN)).toMatchObject({
      outcome: 'key_banned',
      retryAfter: (2 * TEST_BAN.firstBanMs) / 1000,
    });
  });

  it('forgets a ban within a sweep interval once it can no longer lengthen the next one', async () => {
    const clock = fakeClock();
    const limiter = createMemoryRateLimiter({ ban: TEST_BAN, clock });
    await provokeBan(limiter, 'key:1', SMALL_LIMITS, TEST_BAN);

    clock.set(T0 + TEST_BAN.doublesWithinMs - 1);
    await limiter.hit('key:2', SMALL_LIMITS);
    expect(limiter.stats().bans).toBe(1);

    clock.set(T0 + TEST_BAN.doublesWithinMs + SWEEP_INTERVAL_MS);
    await limiter.hit('key:2', SMALL_LIMITS);
    // Both buckets keep their day windows; only the ban is gone.
    expect(limiter.stats()).toEqual({ buckets: 2, bans: 0 });
  });

  it('remembers at most maxBuckets bans, keeping the newest in force', async () => {
    const limiter = createMemoryRateLimiter({ ban: TEST_BAN, clock: fakeClock(), maxBuckets: 5 });
    const limits = { perMinute: 1, perDay: 1 };
    for (let i = 0; i < 20; i += 1) await provokeBan(limiter, `addr:${i}`, limits, TEST_BAN);

    expect(limiter.stats().bans).toBeLessThanOrEqual(5);
    expect(await limiter.hit('addr:19', limits)).toMatchObject({ outcome: 'key_banned' });
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses maxBuckets %s', (maxBuckets) => {
    expect(() => createMemoryRateLimiter({ ban: TEST_BAN, clock: fakeClock(), maxBuckets })).toThrow(RangeError);
  });
});
