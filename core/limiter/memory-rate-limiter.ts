/*
 * Rate limiter state in process memory, for a single server process.
 *
 * Why not rate-limiter-flexible's RateLimiterMemory (11.4.0): it reads Date.now() for every
 * expiry, so the injected Clock cannot drive it (faking Date globally would fight the real
 * listening server in the integration tests); its consume() counts a refused request, while a 429
 * must count against no window; its `points` and `blockDuration` are fixed per instance, while
 * limits vary per key and bans double; and its store keeps one timer per key with no bound on the
 * number of keys, while a flood of client addresses must not grow memory. What remained for it
 * would be a Map increment. So the counters live here, in two Maps with the clock injected, and
 * the rules live in rate-policy.ts, apart from the storage: a shared store for several instances
 * (redis-rate-limiter.ts) implements RateLimiter by running the same rules atomically there.
 */
import type { Clock } from '../clock.ts';
import type { RateDecision, RateLimiter, WindowLimits } from './rate-limiter.ts';
import {
  assertLimits,
  type Ban,
  type BanPolicy,
  type BucketCounters,
  banForgotten,
  countersExpired,
  freshCounters,
  MINUTE_MS,
  takeHit,
} from './rate-policy.ts';

const DEFAULT_MAX_BUCKETS = 100_000;
/** Expired state is dropped by the first hit after this much clock time since the last sweep. */
export const SWEEP_INTERVAL_MS = MINUTE_MS;

export interface MemoryRateLimiterOptions {
  clock: Clock;
  /** The contract's ban rules (`banPolicy(rateLimitRules(document).ban)`). */
  ban: BanPolicy;
  /**
   * Most buckets whose windows are tracked, and separately most buckets whose latest ban is
   * remembered; beyond it the least recently used bucket is forgotten.
   */
  maxBuckets?: number;
}

interface RateLimiterStats {
  /** Buckets whose window counters are held. */
  buckets: number;
  /** Buckets whose latest ban is held (in force, or recent enough to double the next one). */
  bans: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  stats(): RateLimiterStats;
}

export function createMemoryRateLimiter({
  clock,
  ban: policy,
  maxBuckets = DEFAULT_MAX_BUCKETS,
}: MemoryRateLimiterOptions): MemoryRateLimiter {
  if (!Number.isSafeInteger(maxBuckets) || maxBuckets < 1) {
    throw new RangeError(`maxBuckets must be a positive integer, not ${maxBuckets}.`);
  }
  // Both Maps iterate in insertion order: counters are re-inserted on every hit (least recently
  // used first), bans when they start (oldest ban first).
  const counters = new Map<string, BucketCounters>();
  // Apart from the counters, so that a flood of one-off addresses evicting counters cannot wipe
  // a ban or its doubling history.
  const bans = new Map<string, Ban>();
  let nextSweepAt = clock.now() + SWEEP_INTERVAL_MS;

  function sweep(now: number): void {
    for (const [bucket, state] of counters) {
      if (countersExpired(state, now)) counters.delete(bucket);
    }
    for (const [bucket, ban] of bans) {
      if (!banForgotten(ban, now, policy)) break;
      bans.delete(bucket);
    }
  }

  function touchCounters(bucket: string): BucketCounters {
    const state = counters.get(bucket);
    if (state === undefined) {
      const fresh = freshCounters();
      counters.set(bucket, fresh);
      evictBeyondCap(counters, maxBuckets);
      return fresh;
    }
    counters.delete(bucket);
    counters.set(bucket, state);
    return state;
  }

  function rememberBan(bucket: string, ban: Ban): void {
    bans.delete(bucket);
    bans.set(bucket, ban);
    evictBeyondCap(bans, maxBuckets);
  }

  return {
    // No await anywhere: the check and the count happen in one turn of the event loop.
    async hit(bucket: string, limits: WindowLimits): Promise<RateDecision> {
      assertLimits(limits);
      const now = clock.now();
      if (now >= nextSweepAt) {
        sweep(now);
        nextSweepAt = now + SWEEP_INTERVAL_MS;
      }
      const { decision, startedBan } = takeHit(touchCounters(bucket), bans.get(bucket), limits, now, policy);
      if (startedBan !== undefined) rememberBan(bucket, startedBan);
      return decision;
    },
    stats: () => ({ buckets: counters.size, bans: bans.size }),
  };
}

function evictBeyondCap(map: Map<string, unknown>, cap: number): void {
  if (map.size <= cap) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}

/**
 * The service's two limiters in process memory: one for keys, one for addresses, so that a flood
 * of addresses (cheap with IPv6) cannot push a quiet key's windows out of a bounded limiter.
 */
export function memoryLimiters(options: MemoryRateLimiterOptions): {
  keys: MemoryRateLimiter;
  addresses: MemoryRateLimiter;
} {
  return { keys: createMemoryRateLimiter(options), addresses: createMemoryRateLimiter(options) };
}
