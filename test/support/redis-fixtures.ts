import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { onTestFinished } from 'vitest';
import { connectRedis } from '../../server/limiter/redis-rate-limiter.ts';
import { REDIS_TEST_URL, redisTestPrefix } from '../../support/backing-services.ts';

export interface TestRedis {
  /** The test's own key prefix. */
  prefix: string;
  /** A connection to the test Redis, ready, made as the service makes it. */
  redis: Redis;
  /** One more such connection, as another instance of the service would have. */
  connect(): Promise<Redis>;
}

/**
 * A connection to the test Redis and a key prefix of the test's own. When the test finishes the
 * keys under the prefix are deleted (the Redis is shared, so nothing else is) and every
 * connection is closed.
 */
export async function openTestRedis(): Promise<TestRedis> {
  const prefix = redisTestPrefix();
  const connections: Redis[] = [];
  async function connect(): Promise<Redis> {
    const redis = connectRedis(REDIS_TEST_URL);
    connections.push(redis);
    // The service's connections refuse commands until they are ready rather than queue them.
    await once(redis, 'ready');
    return redis;
  }
  const redis = await connect();
  onTestFinished(async () => {
    await deleteKeys(redis, prefix);
    for (const connection of connections) connection.disconnect();
  });
  return { prefix, redis, connect };
}

/** Every key under `prefix`. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(redis, prefix);
  if (keys.length > 0) await redis.del(...keys);
}
