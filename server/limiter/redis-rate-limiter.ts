/*
 * Rate limiter state in Redis, shared by every instance of the service: each hit is one Lua
 * script (rate-limit.lua), which Redis runs atomically, so concurrent requests on several
 * instances are counted exactly as the in-memory limiter counts them in one process.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { RateDecision, RateLimiter, WindowLimits } from '../../core/limiter/rate-limiter.ts';
import { assertLimits, type BanPolicy } from '../../core/limiter/rate-policy.ts';
import { replyCode, withRedis } from './redis-errors.ts';

const SCRIPT = readFileSync(new URL('./rate-limit.lua', import.meta.url), 'utf8');
const SCRIPT_SHA1 = createHash('sha1').update(SCRIPT).digest('hex');

/**
 * Longest wait for Redis before a request is answered 503: a request must not hang on the
 * limiter, and a healthy Redis answers a hit in well under a millisecond.
 */
const REDIS_TIMEOUT_MS = 1_000;
/** Longest pause between reconnection attempts, so the limiter recovers within a second of Redis. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/**
 * A connection that fails fast and heals by itself: while it is down every command is refused at
 * once rather than queued, a command sent but unanswered fails after REDIS_TIMEOUT_MS, and
 * ioredis keeps reconnecting in the background for as long as the connection is not closed.
 */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: REDIS_TIMEOUT_MS,
    // A hit in flight when the connection drops fails instead of being sent again after the
    // reconnection, where Redis could count it twice.
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  // Without a listener ioredis prints every failed reconnection attempt. The failures reach the
  // service anyway, as the UnavailableError of each hit or ping made while Redis is down.
  redis.on('error', () => {});
  return redis;
}

export interface RedisRateLimiterOptions {
  /** The connection (see `connectRedis`); its owner closes it. */
  redis: Redis;
  /** Put before each bucket's name to make its key, so limiters sharing a Redis stay apart. */
  prefix: string;
  /** The contract's ban rules (`banPolicy(rateLimitRules(document).ban)`). */
  ban: BanPolicy;
  /**
   * The time the rules run on, passed to the script rather than read on the Redis server, so a
   * fake clock drives it in tests. The instances sharing a Redis are assumed to have synchronised
   * clocks (NTP): a window or ban ends when the clock of the instance that serves the next
   * request says it has.
   */
  clock: Clock;
}

/** [outcome, limit, remaining, reset, retryAfter]: the script's reply; retryAfter is 0 when allowed. */
type ScriptReply = [RateDecision['outcome'], number, number, number, number];

const OUTCOMES: ReadonlySet<unknown> = new Set<RateDecision['outcome']>(['allowed', 'rate_limited', 'key_banned']);

function isScriptReply(reply: unknown): reply is ScriptReply {
  return Array.isArray(reply) && reply.length === 5 && OUTCOMES.has(reply[0]);
}

/**
 * A limiter whose buckets are kept in Redis under `${prefix}${bucket}`, each one hash that
 * expires once nothing in it can affect a later request. `hit` rejects with
 * UnavailableError when Redis cannot be reached or does not answer in time.
 */
export function createRedisRateLimiter({ redis, prefix, ban, clock }: RedisRateLimiterOptions): RateLimiter {
  return {
    async hit(bucket: string, limits: WindowLimits): Promise<RateDecision> {
      assertLimits(limits);
      const args = [
        clock.now(),
        limits.perMinute,
        limits.perDay,
        ban.refusalsBeforeBan,
        ban.firstBanMs,
        ban.doublesWithinMs,
        ban.longestBanMs,
      ];
      const reply = await withRedis(() => runScript(redis, `${prefix}${bucket}`, args));
      if (!isScriptReply(reply)) {
        // Another command's reply: the connection's replies no longer line up with its commands,
        // and every later hit would be decided on a stranger's answer. A new connection starts
        // in step; meanwhile the request is refused as when Redis does not answer, counted nowhere.
        redis.disconnect(true);
        throw new UnavailableError('limiter', `Redis answered a hit with ${JSON.stringify(reply)}, not a decision`);
      }
      const [outcome, limit, remaining, reset, retryAfter] = reply;
      return outcome === 'allowed'
        ? { outcome, limit, remaining, reset }
        : { outcome, limit, remaining, reset, retryAfter };
    },
  };
}

export interface RedisLimiters {
  /** Counts requests by API key. */
  keys: RateLimiter;
  /** Counts requests without a valid key by client address. */
  addresses: RateLimiter;
  /**
   * Resolves once Redis answers; rejects with UnavailableError after about
   * REDIS_TIMEOUT_MS otherwise. Hits made before the connection is first ready are refused, so
   * the service awaits this before it listens.
   */
  ping(): Promise<void>;
  /** Closes the connection; nothing is used after it. */
  close(): Promise<void>;
}

/**
 * The service's two limiters in the Redis at `url`, over one connection, under `prefix` and
 * apart from each other (`<prefix>rl:key:` and `<prefix>rl:addr:`).
 */
export function openRedisLimiters(
  url: string,
  { ban, clock, prefix }: { ban: BanPolicy; clock: Clock; prefix: string },
): RedisLimiters {
  const redis = connectRedis(url);
  return {
    keys: createRedisRateLimiter({ redis, prefix: `${prefix}rl:key:`, ban, clock }),
    addresses: createRedisRateLimiter({ redis, prefix: `${prefix}rl:addr:`, ban, clock }),
    ping: () =>
      withRedis(async () => {
        // Rejects at the connection's next error (refused, timed out, authentication failed).
        if (redis.status !== 'ready') await once(redis, 'ready', { signal: AbortSignal.timeout(REDIS_TIMEOUT_MS) });
        await redis.ping();
      }),
    async close() {
      // QUIT lets the answers in flight arrive first; a connection that is down or stalled is cut.
      const quit =
        redis.status === 'ready' &&
        (await redis.quit().then(
          () => true,
          () => false,
        ));
      if (!quit) redis.disconnect();
    },
  };
}

/**
 * Sends only the script's digest; a Redis that does not hold the script yet (new, restarted or
 * its script cache flushed) answers NOSCRIPT and gets it once in full, which also caches it.
 */
async function runScript(redis: Redis, key: string, args: number[]): Promise<unknown> {
  try {
    return await redis.evalsha(SCRIPT_SHA1, 1, key, ...args);
  } catch (error) {
    if (replyCode(error) !== 'NOSCRIPT') throw error;
    return redis.eval(SCRIPT, 1, key, ...args);
  }
}
