import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { type Redis, ReplyError } from 'ioredis';
import { describe, expect, it, onTestFinished } from 'vitest';
import { UnavailableError } from '../../../core/errors.ts';
import { createMemoryRateLimiter } from '../../../core/limiter/memory-rate-limiter.ts';
import type { RateDecision, RateLimiter } from '../../../core/limiter/rate-limiter.ts';
import type { BanPolicy } from '../../../core/limiter/rate-policy.ts';
import { withRedis } from '../../../server/limiter/redis-errors.ts';
import { connectRedis, createRedisRateLimiter, openRedisLimiters } from '../../../server/limiter/redis-rate-limiter.ts';
import { REDIS_TEST_URL, redisReachable, redisTestPrefix } from '../../../support/backing-services.ts';
import type { FakeClock } from '../../support/fake-clock.ts';
import {
  CONTRACT_BAN,
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
} from '../../support/limiter-fixtures.ts';
import { redisCommands } from '../../support/protocol-counters.ts';
import { keysUnder, openTestRedis } from '../../support/redis-fixtures.ts';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';

const limits = SMALL_LIMITS;
const redisUp = await redisReachable();

/** A Redis that is down: nothing listens on port 1. */
const NOWHERE = 'redis://127.0.0.1:1';
/** What "fails fast" means here: well within a request's patience, whatever the machine's load. */
const FAST_MS = 2_000;

/** The test Redis, for a proxy in front of it. */
function redisTarget(): { host: string; port: number } {
  const { hostname, port } = new URL(REDIS_TEST_URL);
  return { host: hostname, port: Number(port || 6379) };
}

/** A limiter whose connection to the test Redis runs through a proxy the test controls. */
async function limiterBehindProxy(): Promise<{ proxy: TcpProxy; limiter: RateLimiter }> {
  const proxy = await startTcpProxy(redisTarget());
  onTestFinished(() => proxy.close());
  const { prefix } = await openTestRedis();
  const redis = connectRedis(`redis://127.0.0.1:${proxy.port}`);
  onTestFinished(() => redis.disconnect());
  await once(redis, 'ready');
  return { proxy, limiter: createRedisRateLimiter({ redis, prefix, ban: TEST_BAN, clock: fakeClock() }) };
}

/** Settles `work` and says how long it took. */
async function timed<T>(work: Promise<T>): Promise<{ result: PromiseSettledResult<T>; ms: number }> {
  const started = performance.now();
  const [result] = await Promise.allSettled([work]);
  return { result, ms: performance.now() - started };
}

function rejectionOf<T>(result: PromiseSettledResult<T>): unknown {
  return result.status === 'rejected' ? result.reason : undefined;
}

/** Retries `hit` while the limiter is unavailable, until it decides or `withinMs` has passed. */
async function firstDecision(hit: () => Promise<RateDecision>, withinMs: number): Promise<RateDecision> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      return await hit();
    } catch (error) {
      if (!(error instanceof UnavailableError) || performance.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

describe.skipIf(!redisUp)('redis limiter: state in Redis', () => {
  it('keeps a bucket in one key, the prefix followed by the bucket', async () => {
    const { prefix, redis } = await openTestRedis();
    const limiter = createRedisRateLimiter({ redis, prefix, ban: TEST_BAN, clock: fakeClock() });
    await limiter.hit('addr:2001:db8::1', limits);
    await limiter.hit('key:7', limits);

    expect((await keysUnder(redis, prefix)).sort()).toEqual([`${prefix}addr:2001:db8::1`, `${prefix}key:7`]);
  });

  it('sets an expiry on every key it writes: counted, refused and banned buckets alike', async () => {
    const { prefix, redis } = await openTestRedis();
    const clock = fakeClock();
    const limiter = createRedisRateLimiter({ redis, prefix, ban: TEST_BAN, clock });
    await limiter.hit('key:counted', limits);
    await hitTimes(limiter, 'key:refused', limits, limits.perMinute + 1);
    await provokeBan(limiter, 'key:banned', limits, TEST_BAN);
    clock.advance(DAY);
    await provokeBan(limiter, 'key:banned', limits, TEST_BAN);

    const keys = await keysUnder(redis, prefix);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  const ban = (overrides: Partial<BanPolicy>): BanPolicy => ({ ...TEST_BAN, ...overrides });
  it.each([
    {
      scenario: 'a bucket with one request: its day window',
      policy: TEST_BAN,
      act: (limiter: RateLimiter) => limiter.hit('key:1', limits),
      keptMs: DAY,
    },
    {
      scenario: 'a minute window that ends after the day window: the minute window',
      policy: TEST_BAN,
      act: async (limiter: RateLimiter, clock: FakeClock) => {
        await hitTimes(limiter, 'key:1', { perMinute: 5, perDay: 8 }, 3);
        clock.set(T0 + DAY - 10 * SECOND);
        await hitTimes(limiter, 'key:1', { perMinute: 5, perDay: 8 }, 5);
      },
      keptMs: MINUTE,
    },
    {
      scenario: 'a ban that can lengthen the next one for three days: three days',
      policy: ban({ doublesWithinMs: 3 * DAY }),
      act: (limiter: RateLimiter) => provokeBan(limiter, 'key:1', limits, TEST_BAN),
      keptMs: 3 * DAY,
    },
    {
      scenario: 'a ban of two days: two days',
      policy: ban({ firstBanMs: 2 * DAY }),
      act: (limiter: RateLimiter) => provokeBan(limiter, 'key:1', limits, TEST_BAN),
      keptMs: 2 * DAY,
    },
  ])('keeps $scenario', async ({ policy, act, keptMs }) => {
    const { prefix, redis } = await openTestRedis();
    const clock = fakeClock();
    await act(createRedisRateLimiter({ redis, prefix, ban: policy, clock }), clock);

    // PTTL counts down in real time since the last write; this test takes far less than 5 s.
    const ttl = await redis.pttl(`${prefix}key:1`);
    expect(ttl).toBeLessThanOrEqual(keptMs);
    expect(ttl).toBeGreaterThan(keptMs - 5 * SECOND);
  });

  it('lets Redis drop a bucket once its windows and its ban are over', async () => {
    const { prefix, redis } = await openTestRedis();
    const clock = fakeClock();
    const policy = { refusalsBeforeBan: 10, firstBanMs: 100, doublesWithinMs: 150, longestBanMs: 1000 };
    const limiter = createRedisRateLimiter({ redis, prefix, ban: policy, clock });
    const limits = { perMinute: 1, perDay: 1 };
    await limiter.hit('key:1', limits);
    // 200 ms before the day window ends, refused requests start a ban that ends (and is forgotten) before it.
    clock.set(T0 + DAY - 200);
    const decisions = await hitTimes(limiter, 'key:1', limits, 11);
    expect(decisions.at(-1)).toMatchObject({ outcome: 'key_banned' });
    const ttl = await redis.pttl(`${prefix}key:1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(200);

    await sleep(400);
    expect(await redis.exists(`${prefix}key:1`)).toBe(0);
  });

  /**
   * `redis`, on which each run of the limiter's script is followed by PERSIST of its key in the same
   * transaction. Redis expires a hash in real time, while the fake clock jumps: a hash kept for a
   * millisecond of that clock (a day window 1 ms from its end) could go before the next step of the
   * same instant, and a PERSIST sent after the script could come too late on a loaded machine. The
   * rules read what is over from the fields themselves; the expiry has its own tests above.
   */
  function keptForever(redis: Redis): Redis {
    const persisting =
      (command: 'evalsha' | 'eval') =>
      async (script: string, keys: number, key: string, ...args: Array<string | number>) => {
        const [ran] =
          (await redis
            .multi()
            [command](script, keys, key, ...args)
            .persist(key)
            .exec()) ?? [];
        if (ran?.[0]) throw ran[0];
        return ran?.[1];
      };
    return new Proxy(redis, {
      get(target, name) {
        if (name === 'evalsha' || name === 'eval') return persisting(name);
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  it('decides every sequence of hits exactly as the in-memory limiter does', async () => {
    const { prefix, redis } = await openTestRedis();
    // Times on a grid of whole seconds, so that a step often lands exactly on the end of a
    // window or ban, or on the limit of the doubling, where an off-by-one would show.
    const seconds = (...values: number[]) => fc.constantFrom(...values.map((value) => value * SECOND));
    const smallBan = fc.record({
      refusalsBeforeBan: fc.integer({ min: 0, max: 3 }),
      firstBanMs: seconds(1, 2, 3),
      doublesWithinMs: seconds(0, 2, 5, 10),
      longestBanMs: seconds(1, 4, 8),
    });
    const step = fc.record({
      bucket: fc.constantFrom('key:1', 'key:2'),
      advanceMs: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 3, arbitrary: seconds(1, 2, 3, 4) },
        { weight: 1, arbitrary: fc.constantFrom(1, SECOND - 1, MINUTE - 1, MINUTE, 15 * MINUTE, DAY - 1, DAY) },
      ),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(CONTRACT_BAN), smallBan),
        fc.record({ perMinute: fc.integer({ min: 1, max: 4 }), perDay: fc.integer({ min: 1, max: 10 }) }),
        fc.array(step, { minLength: 1, maxLength: 120 }),
        async (policy, limits, steps) => {
          run += 1;
          const clock = fakeClock();
          const memory = createMemoryRateLimiter({ ban: policy, clock });
          const shared = createRedisRateLimiter({
            redis: keptForever(redis),
            prefix: `${prefix}${run}:`,
            ban: policy,
            clock,
          });
          for (const { bucket, advanceMs } of steps) {
            clock.advance(advanceMs);
            expect(await shared.hit(bucket, limits)).toEqual(await memory.hit(bucket, limits));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe.skipIf(!redisUp)('redis limiter: several instances on one Redis', () => {
  /** Three limiters on one prefix, each with its own connection, as three server instances. */
  async function threeInstances(): Promise<[RateLimiter, RateLimiter, RateLimiter]> {
    const { prefix, redis, connect } = await openTestRedis();
    const clock = fakeClock();
    const instanceOn = (connection: Redis) =>
      createRedisRateLimiter({ redis: connection, prefix, ban: TEST_BAN, clock });
    return [instanceOn(redis), instanceOn(await connect()), instanceOn(await connect())];
  }

  it('of 200 hits sent at once through three instances on a fresh bucket, exactly the per-minute limit pass', async () => {
    const instances = await threeInstances();
    const limits = { perMinute: 50, perDay: 1000 };
    // The 200 hits dealt to the instances in turn: 67, 67 and 66.
    const decisions = await Promise.all(
      instances.flatMap((instance, n) =>
        Array.from({ length: Math.ceil((200 - n) / instances.length) }, () => instance.hit('key:1', limits)),
      ),
    );

    expect(decisions).toHaveLength(200);
    expect(countOutcomes(decisions)).toEqual({
      allowed: 50,
      rate_limited: TEST_BAN.refusalsBeforeBan,
      key_banned: 200 - 50 - TEST_BAN.refusalsBeforeBan,
    });
  });

  it('bans on every instance a bucket whose refusals one instance answered', async () => {
    const [first, ...others] = await threeInstances();
    const banned = await provokeBan(first, 'key:1', limits, TEST_BAN);

    expect(banned).toMatchObject({ outcome: 'key_banned', retryAfter: TEST_BAN.firstBanMs / SECOND });
    for (const instance of others) expect(await instance.hit('key:1', limits)).toEqual(banned);
  });
});

/**
 * A server that speaks Redis's protocol but answers every command `+PONG`, as a connection whose
 * replies have fallen out of step with its commands would answer a hit with a ping's reply.
 */
async function startPongServer(): Promise<{ url: string; connectionsMade: () => number }> {
  const commands = redisCommands();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    const watcher = commands.watch();
    socket.on('data', (chunk: Buffer) => {
      const before = commands.count;
      watcher.fromClient?.(chunk);
      socket.write('+PONG\r\n'.repeat(commands.count - before));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  return { url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`, connectionsMade: () => sockets.size };
}

describe('redis limiter: when Redis fails', () => {
  it("refuses a hit answered with another command's reply as unavailable, and connects again", async () => {
    const pong = await startPongServer();
    const redis = connectRedis(pong.url);
    onTestFinished(() => redis.disconnect());
    await once(redis, 'ready');
    const limiter = createRedisRateLimiter({ redis, prefix: 'unused:', ban: TEST_BAN, clock: fakeClock() });

    const { result } = await timed(limiter.hit('key:1', limits));
    expect(rejectionOf(result)).toBeInstanceOf(UnavailableError);
    expect(rejectionOf(result)).toMatchObject({ reason: expect.stringContaining('"PONG"') });
    await expect.poll(pong.connectionsMade).toBe(2);
  });

  it('rejects a hit with UnavailableError at once when Redis is down', async () => {
    const redis = connectRedis(NOWHERE);
    onTestFinished(() => redis.disconnect());
    const limiter = createRedisRateLimiter({ redis, prefix: 'unused:', ban: TEST_BAN, clock: fakeClock() });

    const { result, ms } = await timed(limiter.hit('key:1', limits));
    expect(rejectionOf(result)).toBeInstanceOf(UnavailableError);
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('rejects a ping with UnavailableError naming the cause when Redis is down', async () => {
    const limiters = openRedisLimiters(NOWHERE, { ban: TEST_BAN, clock: fakeClock(), prefix: 'unused:' });
    onTestFinished(() => limiters.close());

    const { result, ms } = await timed(limiters.ping());
    const error = rejectionOf(result);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ reason: expect.stringContaining('ECONNREFUSED') });
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('answers Redis out of memory as unavailable, and an error in the program as itself', async () => {
    const outOfMemory = new ReplyError("OOM command not allowed when used memory > 'maxmemory'.");
    const scriptError = new ReplyError('ERR user_script:1: Script attempted to access nonexistent global variable');

    await expect(withRedis(() => Promise.reject(outOfMemory))).rejects.toMatchObject({
      name: 'UnavailableError',
      reason: 'Redis has reached its maxmemory (OOM)',
      cause: outOfMemory,
    });
    await expect(withRedis(() => Promise.reject(scriptError))).rejects.toBe(scriptError);
  });

  it.skipIf(!redisUp)(
    'rejects a hit with UnavailableError within a second or so when Redis stops answering',
    async () => {
      const { proxy, limiter } = await limiterBehindProxy();
      await limiter.hit('key:1', limits);

      proxy.stall();
      const { result, ms } = await timed(limiter.hit('key:1', limits));
      expect(rejectionOf(result)).toBeInstanceOf(UnavailableError);
      expect(ms).toBeLessThan(FAST_MS);
    },
  );

  it.skipIf(!redisUp)(
    'fails fast while Redis is away and, on the same connection, counts on where it left off once it is back',
    async () => {
      const { proxy, limiter } = await limiterBehindProxy();
      expect(await limiter.hit('key:1', limits)).toMatchObject({ outcome: 'allowed', remaining: limits.perMinute - 1 });

      await proxy.refuse();
      for (const pauseMs of [0, 500]) {
        await sleep(pauseMs);
        const { result, ms } = await timed(limiter.hit('key:1', limits));
        expect(rejectionOf(result)).toBeInstanceOf(UnavailableError);
        expect(ms).toBeLessThan(FAST_MS);
      }

      await proxy.forward();
      const decision = await firstDecision(() => limiter.hit('key:1', limits), 5_000);
      expect(decision).toMatchObject({ outcome: 'allowed', remaining: limits.perMinute - 2 });
    },
    10_000,
  );
});

describe.skipIf(!redisUp)('redis limiters of the service', () => {
  it('counts keys and addresses apart over one connection, under the prefix it is given', async () => {
    const prefix = redisTestPrefix();
    const limiters = openRedisLimiters(REDIS_TEST_URL, { ban: TEST_BAN, clock: fakeClock(), prefix });
    onTestFinished(() => limiters.close());
    const bucket = 'bucket';
    const [keyBucket, addressBucket] = [`${prefix}rl:key:${bucket}`, `${prefix}rl:addr:${bucket}`];
    const { redis } = await openTestRedis();
    onTestFinished(async () => {
      await redis.del(keyBucket, addressBucket);
    });
    await limiters.ping();

    await hitTimes(limiters.keys, bucket, limits, 3);
    expect(await limiters.addresses.hit(bucket, limits)).toMatchObject({
      outcome: 'allowed',
      remaining: limits.perMinute - 1,
    });
    expect(await redis.hget(keyBucket, 'minuteCount')).toBe('3');
    expect(await redis.hget(addressBucket, 'minuteCount')).toBe('1');
  });
});
