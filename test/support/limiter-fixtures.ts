import type { RateDecision, RateLimiter, WindowLimits } from '../../core/limiter/rate-limiter.ts';
import { type BanPolicy, banPolicy } from '../../core/limiter/rate-policy.ts';
import { CONTRACT_BAN_RULES } from './contract-rate-limits.ts';
import { FakeClock } from './fake-clock.ts';

/** The ban rules the contract states, which the service enforces. */
export const CONTRACT_BAN = banPolicy(CONTRACT_BAN_RULES);

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;

/**
 * Limits of the tests' own for a test of how the limiter works, not of a plan's numbers: small, so
 * the minute window is used up in a few requests, with a day window far from the minute's.
 */
export const SMALL_LIMITS: WindowLimits = { perMinute: 3, perDay: 100 };

/**
 * Ban rules of the tests' own, for a limiter whose test is not about the contract's ban: few
 * refusals before a ban, and lengths unlike the contract's, so a test that restated those shows.
 */
export const TEST_BAN: BanPolicy = {
  refusalsBeforeBan: 3,
  firstBanMs: 10 * MINUTE,
  doublesWithinMs: 90 * MINUTE,
  longestBanMs: 60 * MINUTE,
};

/** 30.25 s into a clock minute, so windows aligned to clock minutes or seconds would show. */
export const T0 = Date.UTC(2026, 2, 1, 12, 0, 30, 250);

/** The shared fake clock, starting at T0. */
export function fakeClock(start = T0): FakeClock {
  return new FakeClock(start);
}

/** X-RateLimit-Reset / ban end as the limiter must state it: Unix seconds, rounded up. */
export function unixSecondsUp(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** Sends `count` requests one after another and returns their decisions. */
export async function hitTimes(
  limiter: RateLimiter,
  bucket: string,
  limits: WindowLimits,
  count: number,
): Promise<RateDecision[]> {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < count; i += 1) decisions.push(await limiter.hit(bucket, limits));
  return decisions;
}

/**
 * Uses up a fresh minute window, then sends the refused requests `ban` tolerates and one more,
 * which starts a ban; returns that last decision. `ban` is the policy the limiter was made with.
 */
export async function provokeBan(
  limiter: RateLimiter,
  bucket: string,
  limits: WindowLimits,
  ban: BanPolicy,
): Promise<RateDecision> {
  await hitTimes(limiter, bucket, limits, limits.perMinute + ban.refusalsBeforeBan);
  return limiter.hit(bucket, limits);
}

export function countOutcomes(decisions: RateDecision[]): Record<RateDecision['outcome'], number> {
  const counts = { allowed: 0, rate_limited: 0, key_banned: 0 };
  for (const { outcome } of decisions) counts[outcome] += 1;
  return counts;
}
