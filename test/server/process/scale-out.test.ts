// Three server processes on one PostgreSQL database and one Redis, as behind a load balancer:
// they see the same pets, hand out ids that never collide, accept each other's cursors, enforce
// the rate limits exactly across instances, and refuse a revoked key within a second.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FetchLike, IDEMPOTENCY_KEY, retryingFetch } from '../../../client/retrying-fetch.ts';
import { loadContract } from '../../../contract/bundled.ts';
import { fixedLimits, rateLimitRules } from '../../../contract/rate-limit-rules.ts';
import { openPostgresStorage } from '../../../server/storage/postgres/storage.ts';
import type { Storage } from '../../../server/storage/storage.ts';
import {
  createTestDatabase,
  postgresReachable,
  REDIS_TEST_URL,
  redisReachable,
  redisTestPrefix,
} from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { compiledProgram, type ServerProcess, startServerProcess } from '../../support/server-process.ts';

const KEYS_CLI = compiledProgram('tools/keys-cli');
const INSTANCES = 3;
const available = (await postgresReachable()) && (await redisReachable());

interface Pet {
  id: number;
  name: string;
}

describe.skipIf(!available)('three instances on one PostgreSQL and one Redis', { timeout: 60_000 }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let env: Record<string, string>;
  let servers: ServerProcess[] = [];
  let storage: Storage;
  let loadKey: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: redisTestPrefix() };
    // All at once on the empty database: the migrations take turns under an advisory lock.
    servers = await Promise.all(Array.from({ length: INSTANCES }, () => startServerProcess(env)));
    storage = await openPostgresStorage(database.url);
    loadKey = (await storage.keys.create({ plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 })).secret;
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    await storage?.close();
    await database?.drop();
  });

  const send = (index: number, path: string, key: string, init: RequestInit = {}, through: FetchLike = fetch) =>
    through(
      new Request(`${defined(servers[index % INSTANCES], 'a server').baseUrl}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
      }),
    );

  it('answers /healthz and /readyz on every instance', async () => {
    for (const server of servers) {
      expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
      const ready = await fetch(`${server.baseUrl}/readyz`);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { storage: 'ok', limiter: 'ok' } });
    }
  });

  it('gives every pet created on any instance its own id, and every instance lists them all, paging across instances', async () => {
    // Sent as the client package sends them: a create the instance answers 503 (its storage or
    // Redis slower than the service waits, as on a loaded machine) is sent again with its key
    // after Retry-After, so the lists below also prove that no retry stored a pet twice.
    const asTheClient = retryingFetch(fetch);
    const created = await Promise.all(
      Array.from({ length: 60 }, async (_, index) => {
        const response = await send(
          index,
          '/v1/pets',
          loadKey,
          {
            method: 'POST',
            headers: { [IDEMPOTENCY_KEY]: `scale-out-${index}` },
            body: JSON.stringify({ name: `Pet ${index}`, categoryId: 1 }),
          },
          asTheClient,
        );
        const body = await response.text();
        expect(response.status, body).toBe(201);
        return JSON.parse(body) as Pet;
      }),
    );
    const ids = created.map((pet) => pet.id);
    expect(new Set(ids).size).toBe(ids.length);

    for (let first = 0; first < INSTANCES; first += 1) {
      const listed: Pet[] = [];
      let path: string | undefined = '/v1/pets?limit=7';
      // Each page from the next instance: a cursor one signed works on the others.
      for (let page = first; path !== undefined; page += 1) {
        const response = await send(page, path, loadKey);
        expect(response.status).toBe(200);
        listed.push(...((await response.json()) as Pet[]));
        path = /<([^>]+)>; rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];
      }
      expect(listed.map((pet) => pet.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    }
  });

  it('lets exactly a free key its per-minute limit of 200 requests sent at once over the instances', async () => {
    const { perMinute } = fixedLimits(rateLimitRules(loadContract().document), 'free');
    const { secret } = await storage.keys.create({ plan: 'free' });

    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => (await send(index, '/v1/pets?limit=1', secret)).status),
    );

    expect(statuses.filter((status) => status === 200)).toHaveLength(perMinute);
    expect(statuses.filter((status) => status === 429)).toHaveLength(200 - perMinute);
  });

  it('refuses, on every instance, a key revoked with the keys tool within one second', async () => {
    const { record, secret } = await storage.keys.create({ plan: 'pro' });
    for (let index = 0; index < INSTANCES; index += 1) expect((await send(index, '/v1/pets', secret)).status).toBe(200);

    await promisify(execFile)(process.execPath, [KEYS_CLI, 'revoke', String(record.id)], {
      env: { ...process.env, ...env },
    });
    const revokedAt = Date.now();

    // Each instance caches the key and hears of the revocation through PostgreSQL's NOTIFY.
    for (let index = 0; index < INSTANCES; index += 1)
      await expect
        .poll(async () => (await send(index, '/v1/pets', secret)).status, { timeout: 10_000, interval: 10 })
        .toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
  });
});
