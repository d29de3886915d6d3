import { loadContract } from '../../contract/bundled.ts';
import { fixedLimits, rateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { RateDecision, RateLimiter, WindowLimits } from '../../core/limiter/rate-limiter.ts';
import { banPolicy } from '../../core/limiter/rate-policy.ts';
import { FakeClock } from './fake-clock.ts';

const contractRules = rateLimitRules(loadContract().document);

/** The ban rules the contract states, which the service enforces. */
export const CONTRACT_BAN = banPolicy(contractRules.ban);

/** A plan's limits as the contract states them. */
export function planLimits(plan: string): WindowLimits {
  return fixedLimits(contractRules, plan);
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const DAY = 24 * 60 * MINUTE;

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

/** Uses up the minute window, then sends the 11 refused requests that start a ban; returns the last. */
export async function provokeBan(limiter: RateLimiter, bucket: string, limits: WindowLimits): Promise<RateDecision> {
  await hitTimes(limiter, bucket, limits, limits.perMinute + 10);
  return limiter.hit(bucket, limits);
}

export function countOutcomes(decisions: RateDecision[]): Record<RateDecision['outcome'], number> {
  const counts = { allowed: 0, rate_limited: 0, key_banned: 0 };
  for (const { outcome } of decisions) counts[outcome] += 1;
  return counts;
}
