// Two instances of the service on one PostgreSQL, as behind a load balancer, each caching the keys
// it looks up: a request costs no round trip for its key, and a key the keys tool creates,
// revokes, rotates, or that expires takes effect on every instance within a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../core/logger.ts';
import { openService, type Service } from '../../../server/service.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import {
  createTestDatabase,
  POSTGRES_ADMIN_URL,
  postgresReachable,
  REDIS_TEST_URL,
  redisReachable,
  redisTestPrefix,
} from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { FakeClock } from '../../support/fake-clock.ts';
import { type Counter, postgresRoundTrips, redisCommands } from '../../support/protocol-counters.ts';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';

const available = (await postgresReachable()) && (await redisReachable());
/** The bound: a key changed with the keys tool takes effect on every instance within it. */
const TAKES_EFFECT_MS = 1_000;

function through(url: string, proxy: TcpProxy): string {
  const rerouted = new URL(url);
  rerouted.hostname = '127.0.0.1';
  rerouted.port = String(proxy.port);
  return rerouted.href;
}

function targetOf(url: string): { host: string; port: number } {
  const { hostname, port, protocol } = new URL(url);
  return { host: hostname, port: Number(port || (protocol.startsWith('redis') ? 6379 : 5432)) };
}

interface Instance {
  service: Service;
  postgres: Counter;
  redis: Counter;
  proxies: TcpProxy[];
}

describe.skipIf(!available)('API keys on PostgreSQL, cached by each instance', { timeout: 30_000 }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const clock = new FakeClock();
  let instances: Instance[] = [];
  /** What `npm run keys` opens: the same database, another connection. */
  let tool: Storage;

  async function openInstance(): Promise<Instance> {
    const postgres = postgresRoundTrips();
    const redis = redisCommands();
    const postgresProxy = await startTcpProxy(targetOf(POSTGRES_ADMIN_URL), { watch: postgres.watch });
    const redisProxy = await startTcpProxy(targetOf(REDIS_TEST_URL), { watch: redis.watch });
    const service = await openService({
      storage: { engine: 'postgres', url: through(database.url, postgresProxy), poolSize: 4 },
      limiter: {
        engine: 'redis',
        url: through(REDIS_TEST_URL, redisProxy),
        keyPrefix: redisTestPrefix(),
        required: true,
      },
      clock,
      logger: createLogger('silent'),
      clientAddress: () => '192.0.2.1',
    });
    return { service, postgres, redis, proxies: [postgresProxy, redisProxy] };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    instances = [await openInstance(), await openInstance()];
    tool = await openPostgresStorage(database.url, { clock });
  });

  afterAll(async () => {
    await tool?.close();
    for (const { service, proxies } of instances) {
      await service.close();
      await Promise.all(proxies.map((proxy) => proxy.close()));
    }
    await database?.drop();
  });

  const statusOn = async ({ service }: Instance, key: string) =>
    (await service.app.request('/v1/pets?limit=20', { headers: { Authorization: `Bearer ${key}` } })).status;

  /** The round trips one request costs an instance, once its key cache listens for changes. */
  async function roundTripsOfOneRequest(instance: Instance, key: string) {
    // Until its listening connection is up, an instance asks PostgreSQL for the key every time.
    await expect
      .poll(async () => {
        const before = instance.postgres.count;
        expect(await statusOn(instance, key)).toBe(200);
        return instance.postgres.count - before;
      })
      .toBe(1);
    // The fewest of a few requests: the webhook delivery worker's polls of the outbox go to the same
    // PostgreSQL beside the requests, and one may fall between a request's counts.
    const costs: Array<{ postgres: number; redis: number }> = [];
    for (let tries = 0; tries < 5; tries++) {
      const postgres = instance.postgres.count;
      const redis = instance.redis.count;
      expect(await statusOn(instance, key)).toBe(200);
      costs.push({ postgres: instance.postgres.count - postgres, redis: instance.redis.count - redis });
    }
    return {
      postgres: Math.min(...costs.map((cost) => cost.postgres)),
      redis: Math.min(...costs.map((cost) => cost.redis)),
    };
  }

  it('costs GET /v1/pets one round trip to PostgreSQL (the page) and one to Redis (the limit), none for the key', async () => {
    const { secret } = await tool.keys.create({ plan: 'pro' });
    for (const instance of instances)
      expect(await roundTripsOfOneRequest(instance, secret)).toEqual({ postgres: 1, redis: 1 });
  });

  /** Every instance has the key cached, then `change` runs in the keys tool; each must refuse it within the bound. */
  async function refusedEverywhereWithinBound(secret: string, change: () => Promise<unknown>) {
    for (const instance of instances) await roundTripsOfOneRequest(instance, secret);
    await change();
    const changed = performance.now();
    const refusedAfter = await Promise.all(
      instances.map(async (instance) => {
        // Bounded only against a hang; the figure asserted is the time it took.
        await expect.poll(() => statusOn(instance, secret), { timeout: 10_000, interval: 10 }).toBe(401);
        return performance.now() - changed;
      }),
    );
    for (const ms of refusedAfter) expect(ms).toBeLessThan(TAKES_EFFECT_MS);
  }

  it('refuses a key the keys tool revokes on every instance within a second', async () => {
    const { record, secret } = await tool.keys.create({ plan: 'pro' });
    await refusedEverywhereWithinBound(secret, () => tool.keys.revoke(record.id));
  });

  it('refuses the old key of a rotation on every instance once the overlap ends, and takes the new one at once', async () => {
    const { record, secret } = await tool.keys.create({ plan: 'pro' });
    let successor = '';
    await refusedEverywhereWithinBound(secret, async () => {
      successor = defined((await tool.keys.rotate(record.id, 0))?.secret, 'the rotation’s new key');
    });
    for (const instance of instances) expect(await statusOn(instance, successor)).toBe(200);
  });

  it('takes a key the keys tool creates on every instance at its first request', async () => {
    const { secret } = await tool.keys.create({ plan: 'free' });
    for (const instance of instances) expect(await statusOn(instance, secret)).toBe(200);
  });

  it('refuses a key revoked while an instance had lost PostgreSQL, once PostgreSQL is back, though it missed the notification', async () => {
    const instance = defined(instances[0], 'an instance');
    const { record, secret } = await tool.keys.create({ plan: 'pro' });
    await roundTripsOfOneRequest(instance, secret);
    const [postgresProxy] = instance.proxies;
    await postgresProxy?.refuse();
    await tool.keys.revoke(record.id);
    await postgresProxy?.forward();
    await expect.poll(() => statusOn(instance, secret), { timeout: 10_000, interval: 50 }).toBe(401);
    // Listening again, the instance caches keys again: a key created now costs no round trip after its first request.
    const { secret: next } = await tool.keys.create({ plan: 'pro' });
    expect(await roundTripsOfOneRequest(instance, next)).toEqual({ postgres: 1, redis: 1 });
  });

  it('refuses a key from its expiry on, on every instance, with no notification needed', async () => {
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    const { secret } = await tool.keys.create({ plan: 'pro', expiresAt });
    for (const instance of instances) await roundTripsOfOneRequest(instance, secret);
    clock.advance(60_000);
    for (const instance of instances) expect(await statusOn(instance, secret)).toBe(401);
  });
});
