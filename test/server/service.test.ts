// The service on PostgreSQL and Redis when either stops answering: requests that need it get a
// 503 with Retry-After within two seconds, /readyz says which, what needs neither keeps working,
// and the instance recovers by itself once the service is back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { createLogger } from '../../core/logger.ts';
import { listen } from '../../node/listen.ts';
import { openService, type Service } from '../../server/service.ts';
import {
  createTestDatabase,
  POSTGRES_ADMIN_URL,
  postgresReachable,
  REDIS_TEST_URL,
  redisReachable,
  redisTestPrefix,
} from '../../support/backing-services.ts';
import { converse, requestHead } from '../support/raw-http.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const available = (await postgresReachable()) && (await redisReachable());
/** The bound for an answer while a backing service is down. */
const FAIL_FAST_MS = 2_000;

/** `url` with its host and port replaced by the proxy's. */
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

describe.skipIf(!available)('openService on PostgreSQL and Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let deployment: Service;
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    postgresProxy = await startTcpProxy(targetOf(POSTGRES_ADMIN_URL));
    redisProxy = await startTcpProxy(targetOf(REDIS_TEST_URL));
    deployment = await openService({
      storage: { engine: 'postgres', url: through(database.url, postgresProxy), poolSize: 10 },
      limiter: {
        engine: 'redis',
        url: through(REDIS_TEST_URL, redisProxy),
        keyPrefix: redisTestPrefix(),
        required: false,
      },
      logger: createLogger('silent'),
      clientAddress: () => '192.0.2.1',
    });
    // Limits the tests cannot reach: their polls while a service recovers would use up a plan's minute.
    key = (await deployment.storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 }))
      .secret;
  });

  afterAll(async () => {
    await deployment?.close();
    await Promise.all([postgresProxy?.close(), redisProxy?.close()]);
    await database?.drop();
  });

  const request = (path: string) => deployment.app.request(path, { headers: { Authorization: `Bearer ${key}` } });
  const timed = async (path: string) => {
    const started = performance.now();
    const response = await request(path);
    return { response, ms: performance.now() - started };
  };
  const readiness = async () => (await deployment.app.request('/readyz')).json();
  /** Asks until `path` answers `status`, as a client retrying after Retry-After would. */
  const recovered = (path: string, status: number) =>
    expect.poll(async () => (await request(path)).status, { timeout: 60_000, interval: 100 }).toBe(status);

  it('is ready while both answer', async () => {
    expect((await request('/v1/pets')).status).toBe(200);
    expect(await readiness()).toEqual({ status: 'ready', checks: { storage: 'ok', limiter: 'ok' } });
  });

  it.each<[string, () => TcpProxy, 'storage' | 'limiter']>([
    ['PostgreSQL', () => postgresProxy, 'storage'],
    ['Redis', () => redisProxy, 'limiter'],
  ])(
    'answers 503 service_unavailable within 2 s while %s refuses connections, fails /readyz, and recovers by itself',
    async (_service, proxy, check) => {
      await proxy().refuse();

      const { response, ms } = await timed('/v1/pets');
      expect(ms).toBeLessThan(FAIL_FAST_MS);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(response.headers.get('Retry-After')).toMatch(/^\d+$/);
      // No window can be read without Redis: the headers promise nothing until Retry-After. Without
      // PostgreSQL the key is refused unchecked (0) or, while this instance's key cache has not
      // yet seen its notification connection reset, checked from the cache and counted.
      if (check === 'limiter') expect(response.headers.get('X-RateLimit-Remaining')).toBe('0');
      else expect(response.headers.get('X-RateLimit-Remaining')).toMatch(/^\d+$/);
      expect(await readiness()).toMatchObject({ status: 'unavailable', checks: { [check]: 'unavailable' } });
      expect((await deployment.app.request('/healthz')).status).toBe(200);
      expect((await deployment.app.request('/openapi.json')).status).toBe(200);

      await proxy().forward();

      await recovered('/v1/pets', 200);
      expect(await readiness()).toMatchObject({ status: 'ready' });
    },
  );

  it.each<[string, () => TcpProxy]>([
    ['PostgreSQL', () => postgresProxy],
    ['Redis', () => redisProxy],
  ])('answers 503 within 2 s while %s holds the connection but answers nothing', async (_service, proxy) => {
    expect((await request('/v1/pets')).status).toBe(200);
    proxy().stall();

    const { response, ms } = await timed('/v1/pets');
    expect(ms).toBeLessThan(FAIL_FAST_MS);
    expect(response.status).toBe(503);

    await proxy().forward();
    await recovered('/v1/pets', 200);
  });

  it.each<[string, () => TcpProxy]>([
    ['PostgreSQL', () => postgresProxy],
    ['Redis', () => redisProxy],
  ])(
    'answers each of five creates pipelined ahead of malformed bytes with 503, in order, then the 400, while %s stalls, and stores none',
    async (service, proxy) => {
      const listening = await listen(deployment.app.fetch, '127.0.0.1', 0, {
        maxBodyBytes: loadContract().largestBodyBytes,
      });
      const tag = `pipelined while ${service} stalls`;
      const create = (index: number) => {
        const body = JSON.stringify({ name: `${tag} ${index}`, categoryId: 1 });
        return (
          requestHead('POST', '/v1/pets', [
            ['Host', 'localhost'],
            ['Authorization', `Bearer ${key}`],
            ['Content-Type', 'application/json'],
            ['Content-Length', body.length],
          ]) + body
        );
      };
      try {
        proxy().stall();
        const conversation = await converse(
          listening.origin,
          [`${[1, 2, 3, 4, 5].map(create).join('')}G@RBAGE / HTTP/1.1\r\n\r\n`],
          { endAfterMs: 10_000 },
        );

        expect(conversation.responses.map((response) => response.status)).toEqual([503, 503, 503, 503, 503, 400]);
        expect(conversation.endedByServer).toBe(true);
        await proxy().forward();
        await recovered('/v1/pets', 200);
        const { items } = await deployment.storage.collections('pets').list({ limit: 100, filters: {} });
        expect(items.filter((pet) => String(pet.name).startsWith(tag))).toEqual([]);
      } finally {
        await proxy().forward();
        await listening.close();
      }
    },
  );

  it('never limits or bans a key, nor its address, for requests made while PostgreSQL stalls', async () => {
    const enterprise = (
      await deployment.storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 })
    ).secret;
    const asEnterprise = () =>
      deployment.app.request('/v1/pets', { headers: { Authorization: `Bearer ${enterprise}` } });
    postgresProxy.stall();

    // More than the key-less plan allows in a minute and than its ban tolerates once limited, all
    // from the one address every client behind a balancer shares.
    const answers = await Promise.all(Array.from({ length: 80 }, asEnterprise));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([503]));
    expect(
      new Set(await Promise.all(answers.map(async (answer) => ((await answer.json()) as { code: string }).code))),
    ).toEqual(new Set(['service_unavailable']));

    await postgresProxy.forward();
    await expect.poll(async () => (await asEnterprise()).status, { timeout: 60_000, interval: 100 }).toBe(200);
    const keyless = await deployment.app.request('/v1/pets');
    expect(keyless.status).toBe(401);
    expect(Number(keyless.headers.get('X-RateLimit-Remaining'))).toBeGreaterThan(0);
  });

  it('says a create answered 503 after PostgreSQL timed it out may have been stored, and a read that it changed nothing', async () => {
    // Another session holds the pets table, so the create runs into the statement timeout, as
    // when PostgreSQL pauses mid-commit and may still commit it once it resumes.
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE pets IN ACCESS EXCLUSIVE MODE');
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const body = JSON.stringify({ name: 'Maybe stored', categoryId: 1 });
      const [create, read] = await Promise.all([
        deployment.app.request('/v1/pets', { method: 'POST', headers, body }),
        // A page no earlier request has read: one the instance keeps in memory is still the
        // table's (nothing was committed), and is rightly answered from there.
        request('/v1/pets?limit=3'),
      ]);

      expect(create.status).toBe(503);
      const createMessage = ((await create.json()) as { message: string }).message;
      expect(createMessage).toMatch(/may have been stored/);
      expect(createMessage).not.toMatch(/nothing was changed/);
      expect(read.status).toBe(503);
      expect(((await read.json()) as { message: string }).message).toMatch(/nothing was changed/);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });

  it('fails /readyz with "stopping" once asked to stop, while it still serves', async () => {
    deployment.stopTakingRequests();

    const ready = await deployment.app.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping' });
    const served = await request('/v1/pets');
    // Its body as the message, so a refusal names the window that refused it.
    expect(served.status, await served.text()).toBe(200);
  });
});
