import { describe, expect, it } from 'vitest';
import {
  DAY,
  fakeClock,
  hitTimes,
  MINUTE,
  planLimits,
  provokeBan,
  SECOND,
  T0,
  unixSecondsUp,
} from '../../support/limiter-fixtures.ts';
import { LIMITER_KINDS } from '../../support/limiter-kinds.ts';

const free = planLimits('free');

for (const kind of LIMITER_KINDS) {
  describe.skipIf(kind.unavailable)(`${kind.name} limiter`, { timeout: kind.timeoutMs }, () => {
    async function setUp() {
      const clock = fakeClock();
      return { clock, limiter: await kind.create(clock) };
    }

    describe('rate limiter: temporary ban', () => {
      it('answers the first ten refusals rate_limited and bans for 15 minutes at the eleventh', async () => {
        const { clock, limiter } = await setUp();
        await hitTimes(limiter, 'key:1', free, 60);
        clock.advance(SECOND);
        const refusals = await hitTimes(limiter, 'key:1', free, 10);

        expect(refusals.map((d) => d.outcome)).toEqual(Array(10).fill('rate_limited'));
        expect(await limiter.hit('key:1', free)).toEqual({
          outcome: 'key_banned',
          limit: 60,
          remaining: 0,
          reset: unixSecondsUp(T0 + SECOND + 15 * MINUTE),
          retryAfter: 15 * 60,
        });
      });

      it('refuses every request until the ban ends, counts none of them, and then allows again', async () => {
        const { clock, limiter } = await setUp();
        await provokeBan(limiter, 'key:1', free);
        const banEnd = T0 + 15 * MINUTE;

        clock.set(T0 + MINUTE);
        expect(await hitTimes(limiter, 'key:1', free, 100)).toEqual(
          Array(100).fill({
            outcome: 'key_banned',
            limit: 60,
            remaining: 0,
            reset: unixSecondsUp(banEnd),
            retryAfter: 14 * 60,
          }),
        );
        clock.set(banEnd - 1);
        expect(await limiter.hit('key:1', free)).toMatchObject({ outcome: 'key_banned', retryAfter: 1 });

        clock.set(banEnd);
        expect(await limiter.hit('key:1', free)).toEqual({
          outcome: 'allowed',
          limit: 60,
          remaining: 59,
          reset: unixSecondsUp(banEnd + MINUTE),
        });
      });

      it('starts counting refusals again when the window resets', async () => {
        const { clock, limiter } = await setUp();
        await hitTimes(limiter, 'key:1', free, 60 + 10);
        clock.advance(MINUTE);
        const secondMinute = await hitTimes(limiter, 'key:1', free, 60 + 11);

        expect(secondMinute.slice(60).map((d) => d.outcome)).toEqual([...Array(10).fill('rate_limited'), 'key_banned']);
      });

      it.each([
        ['the minute window', { perMinute: 5, perDay: 1000 }, 5],
        ['the day window', { perMinute: 5, perDay: 8 }, 8],
      ])('reports the limit of the exceeded window while banned: %s', async (_, limits, bannedLimit) => {
        const { clock, limiter } = await setUp();
        await hitTimes(limiter, 'key:1', limits, 5);
        clock.advance(MINUTE);
        const secondMinute = await hitTimes(limiter, 'key:1', limits, 5 + 11);

        expect(secondMinute.at(-1)).toMatchObject({ outcome: 'key_banned', limit: bannedLimit, remaining: 0 });
        clock.advance(2 * MINUTE);
        expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'key_banned', limit: bannedLimit });
      });

      it('after a ban ends with the day window still exhausted, gives ten more rate_limited before the next ban', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 5, perDay: 8 };
        await hitTimes(limiter, 'key:1', limits, 5);
        clock.advance(MINUTE);
        await hitTimes(limiter, 'key:1', limits, 3 + 11);
        clock.advance(15 * MINUTE);

        const afterBan = await hitTimes(limiter, 'key:1', limits, 11);
        expect(afterBan.slice(0, 10)).toEqual(
          Array(10).fill({
            outcome: 'rate_limited',
            limit: 8,
            remaining: 0,
            reset: unixSecondsUp(T0 + DAY),
            retryAfter: (DAY - 16 * MINUTE) / SECOND,
          }),
        );
        expect(afterBan[10]).toMatchObject({ outcome: 'key_banned', retryAfter: 30 * 60 });
      });
    });

    describe('rate limiter: ban length', () => {
      it('doubles each ban that starts within 24 hours of the previous ban start, up to 24 hours', async () => {
        const { clock, limiter } = await setUp();
        const lengthsInMinutes: number[] = [];
        for (let ban = 0; ban < 9; ban += 1) {
          const decision = await provokeBan(limiter, 'key:1', free);
          expect(decision.outcome).toBe('key_banned');
          lengthsInMinutes.push((decision.retryAfter ?? 0) / 60);
          clock.advance((decision.retryAfter ?? 0) * SECOND);
        }

        // The ninth starts exactly 24 hours after the eighth (a 24-hour ban) started: a first ban again.
        expect(lengthsInMinutes).toEqual([15, 30, 60, 120, 240, 480, 960, 24 * 60, 15]);
      });

      it.each([
        [DAY - 1, 30],
        [DAY, 15],
        [DAY + 15 * MINUTE - 1, 15],
      ])(
        'measures the 24 hours from the previous ban start: a ban %i ms after it lasts %i minutes',
        async (offset, minutes) => {
          const { clock, limiter } = await setUp();
          await provokeBan(limiter, 'key:1', free);
          clock.set(T0 + offset - 30 * SECOND);
          await hitTimes(limiter, 'key:1', free, 60 + 10);
          clock.set(T0 + offset);

          expect(await limiter.hit('key:1', free)).toMatchObject({ outcome: 'key_banned', retryAfter: minutes * 60 });
        },
      );

      it('bans one bucket without touching another', async () => {
        const { limiter } = await setUp();
        await provokeBan(limiter, 'key:1', free);
        const other = await provokeBan(limiter, 'key:2', free);

        expect(other).toMatchObject({ outcome: 'key_banned', retryAfter: 15 * 60 });
      });
    });
  });
}
