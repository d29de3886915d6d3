import { describe, expect, it } from 'vitest';
import type { WindowLimits } from '../../../core/limiter/rate-limiter.ts';
import { FIXED_PLANS, planLimits } from '../../support/contract-rate-limits.ts';
import {
  countOutcomes,
  DAY,
  fakeClock,
  hitTimes,
  MINUTE,
  provokeBan,
  SECOND,
  SMALL_LIMITS,
  T0,
  TEST_BAN,
  unixSecondsUp,
} from '../../support/limiter-fixtures.ts';
import { LIMITER_KINDS } from '../../support/limiter-kinds.ts';

/** Every plan of the contract with fixed limits, as it states them, and limits of a key's own. */
const PLANS: Array<[string, WindowLimits]> = [
  ...FIXED_PLANS.map((plan): [string, WindowLimits] => [plan, planLimits(plan)]),
  ['enterprise (custom 5/8)', { perMinute: 5, perDay: 8 }],
];

for (const kind of LIMITER_KINDS) {
  describe.skipIf(kind.unavailable)(`${kind.name} limiter`, { timeout: kind.timeoutMs }, () => {
    async function setUp() {
      const clock = fakeClock();
      return { clock, limiter: await kind.create(clock, TEST_BAN) };
    }

    describe('rate limiter: per-minute window', () => {
      it.each(PLANS)(
        '%s: allows the per-minute limit with the minute headers counting down, then refuses',
        async (_, limits) => {
          const { limiter } = await setUp();
          const decisions = await hitTimes(limiter, 'key:1', limits, limits.perMinute + 1);
          const minuteReset = unixSecondsUp(T0 + MINUTE);

          expect(decisions.slice(0, -1)).toEqual(
            decisions.slice(0, -1).map((_, i) => ({
              outcome: 'allowed',
              limit: limits.perMinute,
              remaining: limits.perMinute - i - 1,
              reset: minuteReset,
            })),
          );
          expect(decisions.at(-1)).toEqual({
            outcome: 'rate_limited',
            limit: limits.perMinute,
            remaining: 0,
            reset: minuteReset,
            retryAfter: 60,
          });
        },
      );

      it('resets 60 s after its first counted request, not at a clock minute, while the day window carries on', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 5, perDay: 8 };
        await limiter.hit('key:1', limits);
        clock.advance(20 * SECOND);
        await hitTimes(limiter, 'key:1', limits, 4);

        clock.set(T0 + MINUTE - 1);
        expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'rate_limited', retryAfter: 1 });

        clock.set(T0 + MINUTE);
        // 3 of the day's 8 are left after this one's count; the day window did not restart.
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'allowed',
          limit: 8,
          remaining: 2,
          reset: unixSecondsUp(T0 + DAY),
        });
      });

      it.each([
        [0, 60],
        [10_500, 50],
        [30_000, 30],
        [59_001, 1],
        [59_999, 1],
      ])(
        'Retry-After %i ms into an exhausted minute window is %i s (rounded up, at least 1)',
        async (elapsed, retryAfter) => {
          const { clock, limiter } = await setUp();
          await hitTimes(limiter, 'key:1', SMALL_LIMITS, SMALL_LIMITS.perMinute);
          clock.advance(elapsed);

          expect(await limiter.hit('key:1', SMALL_LIMITS)).toEqual({
            outcome: 'rate_limited',
            limit: SMALL_LIMITS.perMinute,
            remaining: 0,
            reset: unixSecondsUp(T0 + MINUTE),
            retryAfter,
          });
        },
      );
    });

    describe('rate limiter: per-day window', () => {
      it.each(PLANS)(
        '%s: allows the per-day limit across minute windows, then refuses until the day window ends',
        async (_, limits) => {
          const { clock, limiter } = await setUp();
          for (let sent = 0; sent < limits.perDay; clock.advance(MINUTE)) {
            const batch = Math.min(limits.perMinute, limits.perDay - sent);
            // A minute's requests at once: a day of the business plan is a great many of them.
            const decisions = await Promise.all(Array.from({ length: batch }, () => limiter.hit('key:1', limits)));
            expect(countOutcomes(decisions).allowed).toBe(batch);
            sent += batch;
          }

          expect(await limiter.hit('key:1', limits)).toEqual({
            outcome: 'rate_limited',
            limit: limits.perDay,
            remaining: 0,
            reset: unixSecondsUp(T0 + DAY),
            retryAfter: Math.ceil((T0 + DAY - clock.now()) / SECOND),
          });

          clock.set(T0 + DAY);
          expect(await limiter.hit('key:1', limits)).toEqual({
            outcome: 'allowed',
            limit: limits.perMinute,
            remaining: limits.perMinute - 1,
            reset: unixSecondsUp(T0 + DAY + MINUTE),
          });
        },
      );

      it('is the window the headers describe once it has fewer requests left than the minute window', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 3, perDay: 11 };
        for (let minute = 0; minute < 3; minute += 1) {
          await hitTimes(limiter, 'key:1', limits, 3);
          clock.advance(MINUTE);
        }

        // 9 used: the minute window has 2 left after this request, the day window 1.
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'allowed',
          limit: 11,
          remaining: 1,
          reset: unixSecondsUp(T0 + DAY),
        });
      });

      it('describes the minute window when both have as many requests left', async () => {
        const { limiter } = await setUp();
        expect(await limiter.hit('key:1', { perMinute: 10, perDay: 10 })).toEqual({
          outcome: 'allowed',
          limit: 10,
          remaining: 9,
          reset: unixSecondsUp(T0 + MINUTE),
        });
      });
    });

    describe('rate limiter: both windows exhausted', () => {
      it('shows the minute window but sets Retry-After to when the day window lets the caller through', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 10, perDay: 10 };
        await hitTimes(limiter, 'key:1', limits, 10);

        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'rate_limited',
          limit: 10,
          remaining: 0,
          reset: unixSecondsUp(T0 + MINUTE),
          retryAfter: DAY / SECOND,
        });

        clock.set(T0 + MINUTE);
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'rate_limited',
          limit: 10,
          remaining: 0,
          reset: unixSecondsUp(T0 + DAY),
          retryAfter: (DAY - MINUTE) / SECOND,
        });
      });

      it('waits for the minute window when it ends after the day window', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 5, perDay: 8 };
        await hitTimes(limiter, 'key:1', limits, 3);
        const lastMinuteStart = T0 + DAY - 10 * SECOND;
        clock.set(lastMinuteStart);
        await hitTimes(limiter, 'key:1', limits, 5);

        expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'rate_limited', retryAfter: 60 });

        clock.set(T0 + DAY);
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'rate_limited',
          limit: 5,
          remaining: 0,
          reset: unixSecondsUp(lastMinuteStart + MINUTE),
          retryAfter: 50,
        });

        clock.set(lastMinuteStart + MINUTE);
        expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'allowed' });
      });
    });

    describe('rate limiter: counting', () => {
      it('counts a refused request against neither window', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 5, perDay: 12 };
        // The minute used up, then as many refusals as the ban tolerates.
        await hitTimes(limiter, 'key:1', limits, 5 + TEST_BAN.refusalsBeforeBan);
        clock.advance(MINUTE);

        expect(countOutcomes(await hitTimes(limiter, 'key:1', limits, 6))).toEqual({
          allowed: 5,
          rate_limited: 1,
          key_banned: 0,
        });
        clock.advance(MINUTE);
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'allowed',
          limit: 12,
          remaining: 1,
          reset: unixSecondsUp(T0 + DAY),
        });
      });

      it('keeps every bucket apart', async () => {
        const { limiter } = await setUp();
        await provokeBan(limiter, 'key:1', SMALL_LIMITS, TEST_BAN);
        expect(await limiter.hit('key:1', SMALL_LIMITS)).toMatchObject({ outcome: 'key_banned' });

        for (const bucket of ['key:2', 'addr:1.2.3.4']) {
          expect(await limiter.hit(bucket, SMALL_LIMITS)).toEqual({
            outcome: 'allowed',
            limit: SMALL_LIMITS.perMinute,
            remaining: SMALL_LIMITS.perMinute - 1,
            reset: unixSecondsUp(T0 + MINUTE),
          });
        }
      });

      it.each([
        { perMinute: 3, sent: 50 },
        { perMinute: 150, sent: 400 },
      ])(
        '$perMinute a minute: of $sent hits sent at once on a fresh bucket, exactly the per-minute limit pass',
        async ({ perMinute, sent }) => {
          const { limiter } = await setUp();
          const limits = { perMinute, perDay: 1000 };
          const decisions = await Promise.all(Array.from({ length: sent }, () => limiter.hit('key:1', limits)));

          expect(countOutcomes(decisions)).toEqual({
            allowed: perMinute,
            rate_limited: TEST_BAN.refusalsBeforeBan,
            key_banned: sent - perMinute - TEST_BAN.refusalsBeforeBan,
          });
        },
      );

      it.each([
        { perMinute: 0, perDay: 10 },
        { perMinute: 10, perDay: -1 },
        { perMinute: 1.5, perDay: 10 },
        { perMinute: Number.NaN, perDay: 10 },
        { perMinute: 10, perDay: Number.POSITIVE_INFINITY },
      ])('rejects limits that are not positive integers: %o', async (limits) => {
        const { limiter } = await setUp();
        await expect(limiter.hit('key:1', limits)).rejects.toThrow(RangeError);
      });
    });
  });
}
