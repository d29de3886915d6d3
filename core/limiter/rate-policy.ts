import type { BanRules } from '../../contract/rate-limit-rules.ts';
import type { RateDecision, WindowLimits } from './rate-limiter.ts';

/**
 * The product's own rate-limit rules, independent of where the state is kept: two fixed windows
 * per bucket, the choice of window the headers describe, and the temporary ban.
 * `takeHit` reads and updates the state in one synchronous step, so a store that keeps the state
 * in process memory is atomic without locks.
 */

export const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The contract's ban rules in the limiter's unit, milliseconds. */
export interface BanPolicy {
  /** Refused requests answered `rate_limited` before the next one starts a ban. */
  refusalsBeforeBan: number;
  firstBanMs: number;
  /** A ban that starts less than this long after the previous one's start lasts twice as long. */
  doublesWithinMs: number;
  longestBanMs: number;
}

export function banPolicy(rules: BanRules): BanPolicy {
  return {
    refusalsBeforeBan: rules.afterRefusals,
    firstBanMs: rules.firstBanSeconds * 1000,
    doublesWithinMs: rules.doublesWithinSeconds * 1000,
    longestBanMs: rules.longestBanSeconds * 1000,
  };
}

/** Refuses limits that are not positive integers, which no window could count against. */
export function assertLimits({ perMinute, perDay }: WindowLimits): void {
  if (!Number.isSafeInteger(perMinute) || perMinute < 1 || !Number.isSafeInteger(perDay) || perDay < 1) {
    throw new RangeError(`Rate limits must be positive integers, not perMinute=${perMinute}, perDay=${perDay}.`);
  }
}

/** A fixed window: it starts with the first request counted in it. */
interface CountedWindow {
  count: number;
  endsAt: number;
}

export interface BucketCounters {
  minute: CountedWindow | undefined;
  day: CountedWindow | undefined;
  /** Refusals since the caller was last able to pass. */
  refused: number;
  /** When every window that refused the caller has reset, so `refused` starts again from 0. */
  refusedUntil: number;
}

export interface Ban {
  startedAt: number;
  endsAt: number;
  /**
   * X-RateLimit-Limit while banned: the limit of the window whose exhaustion led to the ban, so
   * the header keeps naming the limit the caller broke even after that window has reset.
   */
  limit: number;
}

export function freshCounters(): BucketCounters {
  return { minute: undefined, day: undefined, refused: 0, refusedUntil: 0 };
}

/** True once every window has ended, so dropping the counters changes no later decision. */
export function countersExpired(counters: BucketCounters, now: number): boolean {
  return !isLive(counters.minute, now) && !isLive(counters.day, now);
}

/** True once a ban can neither be in force nor lengthen a later ban. */
export function banForgotten(ban: Ban, now: number, policy: BanPolicy): boolean {
  return now >= ban.startedAt + policy.doublesWithinMs && now >= ban.endsAt;
}

export interface HitOutcome {
  decision: RateDecision;
  /** Set when this hit started a ban; the caller keeps it as the bucket's latest ban. */
  startedBan?: Ban;
}

/**
 * Decides one request of a bucket at `now` (ms) and counts it when allowed. `counters` is
 * updated in place; `latestBan` is the bucket's most recent ban, if still remembered.
 */
export function takeHit(
  counters: BucketCounters,
  latestBan: Ban | undefined,
  limits: WindowLimits,
  now: number,
  policy: BanPolicy,
): HitOutcome {
  if (latestBan !== undefined && now < latestBan.endsAt) {
    return { decision: bannedDecision(latestBan, now) };
  }

  const minute = isLive(counters.minute, now) ? counters.minute : undefined;
  const day = isLive(counters.day, now) ? counters.day : undefined;
  const minuteLeft = Math.max(0, limits.perMinute - (minute?.count ?? 0));
  const dayLeft = Math.max(0, limits.perDay - (day?.count ?? 0));

  if (minuteLeft > 0 && dayLeft > 0) {
    counters.minute = countIn(minute, now, MINUTE_MS);
    counters.day = countIn(day, now, DAY_MS);
    const shown = shownWindow(limits, minuteLeft - 1, counters.minute.endsAt, dayLeft - 1, counters.day.endsAt);
    return { decision: { outcome: 'allowed', ...shown } };
  }

  // A refusal counts against no window. An exhausted window is always live, so its end is known;
  // the other one is shown only if it is exhausted too, so its stand-in end never reaches a header.
  const minuteEnd = minute?.endsAt ?? now + MINUTE_MS;
  const dayEnd = day?.endsAt ?? now + DAY_MS;
  // The request can pass only once every exhausted window has reset.
  const canPassAt = Math.max(minuteLeft === 0 ? minuteEnd : now, dayLeft === 0 ? dayEnd : now);
  const shown = shownWindow(limits, minuteLeft, minuteEnd, dayLeft, dayEnd);

  if (now >= counters.refusedUntil) counters.refused = 0;
  counters.refused += 1;
  counters.refusedUntil = canPassAt;

  if (counters.refused > policy.refusalsBeforeBan) {
    const ban = startBan(latestBan, shown.limit, now, policy);
    // Each ban answers its own run of refusals: after it, the caller gets the same ten warnings.
    counters.refused = 0;
    counters.refusedUntil = 0;
    return { decision: bannedDecision(ban, now), startedBan: ban };
  }

  return {
    decision: {
      outcome: 'rate_limited',
      ...shown,
      remaining: 0,
      retryAfter: secondsUntil(canPassAt, now),
    },
  };
}

function isLive(window: CountedWindow | undefined, now: number): window is CountedWindow {
  return window !== undefined && now < window.endsAt;
}

function countIn(live: CountedWindow | undefined, now: number, lengthMs: number): CountedWindow {
  if (live === undefined) return { count: 1, endsAt: now + lengthMs };
  live.count += 1;
  return live;
}

/** The window with the fewest requests left; the minute window on a tie (also when both are exhausted). */
function shownWindow(
  limits: WindowLimits,
  minuteLeft: number,
  minuteEnd: number,
  dayLeft: number,
  dayEnd: number,
): Pick<RateDecision, 'limit' | 'remaining' | 'reset'> {
  return dayLeft < minuteLeft
    ? { limit: limits.perDay, remaining: dayLeft, reset: unixSecondsRoundedUp(dayEnd) }
    : { limit: limits.perMinute, remaining: minuteLeft, reset: unixSecondsRoundedUp(minuteEnd) };
}

function startBan(latestBan: Ban | undefined, limit: number, now: number, policy: BanPolicy): Ban {
  const lengthMs =
    latestBan !== undefined && now < latestBan.startedAt + policy.doublesWithinMs
      ? Math.min(2 * (latestBan.endsAt - latestBan.startedAt), policy.longestBanMs)
      : policy.firstBanMs;
  return { startedAt: now, endsAt: now + lengthMs, limit };
}

function bannedDecision(ban: Ban, now: number): RateDecision {
  return {
    outcome: 'key_banned',
    limit: ban.limit,
    remaining: 0,
    reset: unixSecondsRoundedUp(ban.endsAt),
    retryAfter: secondsUntil(ban.endsAt, now),
  };
}

function unixSecondsRoundedUp(ms: number): number {
  return Math.ceil(ms / 1000);
}

function secondsUntil(ms: number, now: number): number {
  return Math.max(1, Math.ceil((ms - now) / 1000));
}
