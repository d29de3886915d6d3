import { describe, expect, it } from 'vitest';
import type { BanPolicy } from '../../../core/limiter/rate-policy.ts';
import {
  DAY,
  fakeClock,
  hitTimes,
  MINUTE,
  provokeBan,
  SECOND,
  T0,
  unixSecondsUp,
} from '../../support/limiter-fixtures.ts';
import { LIMITER_KINDS } from '../../support/limiter-kinds.ts';

// How bans work, on ban rules and limits of these tests' own: the service bans by the contract's
// rules, which the HTTP tests read from it. Unlike the contract's, the longest ban is shorter than
// the time within which bans double, so a test that confused the two would fail.
const BAN: BanPolicy = {
  refusalsBeforeBan: 3,
  firstBanMs: 10 * MINUTE,
  doublesWithinMs: 90 * MINUTE,
  longestBanMs: 60 * MINUTE,
};
const limits = { perMinute: 4, perDay: 100 };

for (const kind of LIMITER_KINDS) {
  describe.skipIf(kind.unavailable)(`${kind.name} limiter`, { timeout: kind.timeoutMs }, () => {
    async function setUp() {
      const clock = fakeClock();
      return { clock, limiter: await kind.create(clock, BAN) };
    }

    describe('rate limiter: temporary ban', () => {
      it('answers the first three refusals rate_limited and bans for 10 minutes at the fourth', async () => {
        const { clock, limiter } = await setUp();
        await hitTimes(limiter, 'key:1', limits, 4);
        clock.advance(SECOND);
        const refusals = await hitTimes(limiter, 'key:1', limits, 3);

        expect(refusals.map((d) => d.outcome)).toEqual(Array(3).fill('rate_limited'));
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'key_banned',
          limit: 4,
          remaining: 0,
          reset: unixSecondsUp(T0 + SECOND + 10 * MINUTE),
          retryAfter: 10 * 60,
        });
      });

      it('refuses every request until the ban ends, counts none of them, and then allows again', async () => {
        const { clock, limiter } = await setUp();
        await provokeBan(limiter, 'key:1', limits, BAN);
        const banEnd = T0 + 10 * MINUTE;

        clock.set(T0 + MINUTE);
        expect(await hitTimes(limiter, 'key:1', limits, 20)).toEqual(
          Array(20).fill({
            outcome: 'key_banned',
            limit: 4,
            remaining: 0,
            reset: unixSecondsUp(banEnd),
            retryAfter: 9 * 60,
          }),
        );
        clock.set(banEnd - 1);
        expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'key_banned', retryAfter: 1 });

        clock.set(banEnd);
        expect(await limiter.hit('key:1', limits)).toEqual({
          outcome: 'allowed',
          limit: 4,
          remaining: 3,
          reset: unixSecondsUp(banEnd + MINUTE),
        });
      });

      it('starts counting refusals again when the window resets', async () => {
        const { clock, limiter } = await setUp();
        await hitTimes(limiter, 'key:1', limits, 4 + 3);
        clock.advance(MINUTE);
        const secondMinute = await hitTimes(limiter, 'key:1', limits, 4 + 4);

        expect(secondMinute.slice(4).map((d) => d.outcome)).toEqual([...Array(3).fill('rate_limited'), 'key_banned']);
      });

      it.each([
        ['the minute window', { perMinute: 5, perDay: 1000 }, 5],
        ['the day window', { perMinute: 5, perDay: 8 }, 8],
      ])('reports the limit of the exceeded window while banned: %s', async (_, limits, bannedLimit) => {
        const { clock, limiter } = await setUp();
        await hitTimes(limiter, 'key:1', limits, 5);
        clock.advance(MINUTE);
        const secondMinute = await hitTimes(limiter, 'key:1', limits, 5 + 4);

        expect(secondMinute.at(-1)).toMatchObject({ outcome: 'key_banned', limit: bannedLimit, remaining: 0 });
        clock.advance(2 * MINUTE);
        expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'key_banned', limit: bannedLimit });
      });

      it('after a ban ends with the day window still exhausted, gives three more rate_limited before the next ban', async () => {
        const { clock, limiter } = await setUp();
        const limits = { perMinute: 5, perDay: 8 };
        await hitTimes(limiter, 'key:1', limits, 5);
        clock.advance(MINUTE);
        await hitTimes(limiter, 'key:1', limits, 3 + 4);
        clock.advance(10 * MINUTE);

        const afterBan = await hitTimes(limiter, 'key:1', limits, 4);
        expect(afterBan.slice(0, 3)).toEqual(
          Array(3).fill({
            outcome: 'rate_limited',
            limit: 8,
            remaining: 0,
            reset: unixSecondsUp(T0 + DAY),
            retryAfter: (DAY - 11 * MINUTE) / SECOND,
          }),
        );
        expect(afterBan[3]).toMatchObject({ outcome: 'key_banned', retryAfter: 20 * 60 });
      });
    });

    describe('rate limiter: ban length', () => {
      it('doubles each ban that starts within 90 minutes of the previous ban start, up to an hour', async () => {
        const { clock, limiter } = await setUp();
        const lengthsInMinutes: number[] = [];
        for (let ban = 0; ban < 5; ban += 1) {
          const decision = await provokeBan(limiter, 'key:1', limits, BAN);
          expect(decision.outcome).toBe('key_banned');
          lengthsInMinutes.push((decision.retryAfter ?? 0) / 60);
          clock.advance((decision.retryAfter ?? 0) * SECOND);
        }

        // The fourth would be 80 minutes, capped at an hour; the fifth starts that hour after it, within
        // the 90 minutes, so it doubles the hour and is capped too.
        expect(lengthsInMinutes).toEqual([10, 20, 40, 60, 60]);
      });

      it.each([
        [90 * MINUTE - 1, 20],
        [90 * MINUTE, 10],
        [90 * MINUTE + 10 * MINUTE - 1, 10],
      ])(
        'measures the 90 minutes from the previous ban start: a ban %i ms after it lasts %i minutes',
        async (offset, minutes) => {
          const { clock, limiter } = await setUp();
          await provokeBan(limiter, 'key:1', limits, BAN);
          clock.set(T0 + offset - 30 * SECOND);
          await hitTimes(limiter, 'key:1', limits, 4 + 3);
          clock.set(T0 + offset);

          expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'key_banned', retryAfter: minutes * 60 });
        },
      );

      it('bans one bucket without touching another', async () => {
        const { limiter } = await setUp();
        await provokeBan(limiter, 'key:1', limits, BAN);
        const other = await provokeBan(limiter, 'key:2', limits, BAN);

        expect(other).toMatchObject({ outcome: 'key_banned', retryAfter: 10 * 60 });
      });
    });
  });
}
