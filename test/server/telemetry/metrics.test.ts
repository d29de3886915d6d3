import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { systemClock } from '../../../core/clock.ts';
import { UnavailableError } from '../../../core/errors.ts';
import { createLogger } from '../../../core/logger.ts';
import { openService } from '../../../server/service.ts';
import { openDatabase } from '../../../server/storage/sqlite/database.ts';
import { sqliteStorage } from '../../../server/storage/sqlite/storage.ts';
import { createMetrics, type Metrics } from '../../../server/telemetry/metrics.ts';
import { openTelemetry } from '../../../server/telemetry/telemetry.ts';
import { SMALL_WINDOW_KEY } from '../../support/http.ts';
import { type Exposition, parseExposition } from '../../support/metrics.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const DURATION = 'http_server_request_duration_seconds';

async function scrape(metrics: Metrics): Promise<Exposition> {
  return parseExposition((await metrics.expose()).body);
}

describe('http_server_request_duration_seconds', () => {
  let metrics: Metrics;
  let app: TestApp;
  let exposition: Exposition;

  beforeAll(async () => {
    const telemetry = await openTelemetry({ metrics: { host: '127.0.0.1', port: 0 }, tracing: undefined }, '1.0.0');
    metrics = telemetry.metrics as Metrics;
    app = await createTestApp({ telemetry });
    await app.request('/v1/pets?limit=2');
    await app.request('/v1/pets/abc');
    await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_unknownunknownunknownunknown' } });
    await app.request('/v1/pets', { method: 'DELETE' });
    for (const path of ['/v1/no-such-thing', '/v1/no/such/thing/either', '/wp-login.php']) await app.request(path);
    await app.request('/openapi.json');
    exposition = await scrape(metrics);
  });
  afterAll(() => app.close());

  it.each([
    ['an answered operation', { method: 'GET', route: '/pets', operation: 'listPets', status: '200' }],
    ['a request its operation refused', { method: 'GET', route: '/pets/{petId}', operation: 'getPet', status: '400' }],
    ['a refusal before routing (401)', { method: 'GET', route: '/pets', operation: 'listPets', status: '401' }],
    ['a method the path lacks (405)', { method: 'DELETE', route: '/pets', operation: 'none', status: '405' }],
    ['a public route beside the API', { method: 'GET', route: '/openapi.json', operation: 'none', status: '200' }],
  ])('counts %s once, under the contract’s path template without the base path', (_, labels) => {
    expect(exposition.histogram(DURATION, labels).count).toBe(1);
  });

  it('counts every unknown path under the one route `unmatched`, so clients cannot grow the label set', () => {
    expect(
      exposition.histogram(DURATION, { method: 'GET', route: 'unmatched', operation: 'none', status: '404' }),
    ).toEqual({ count: 3, sum: expect.any(Number) });
    const routes = new Set(exposition.labelSets(`${DURATION}_count`).map((labels) => labels.route));
    const contractRoutes = new Set(loadContract().operations.map((operation) => operation.path));
    for (const route of routes)
      expect(contractRoutes.has(route ?? '') || route === 'unmatched' || route === '/openapi.json').toBe(true);
  });

  it('includes prom-client’s process and Node.js metrics', () => {
    for (const name of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes'])
      expect(exposition.names).toContain(name);
  });
});

describe('animal_store_* metrics', () => {
  it('counts 429 refusals by code, and each refusal once among the requests', async () => {
    const telemetry = await openTelemetry({ metrics: { host: '127.0.0.1', port: 0 }, tracing: undefined }, '1.0.0');
    const app = await createTestApp({ telemetry, key: SMALL_WINDOW_KEY });
    try {
      const statuses: number[] = [];
      for (let sent = 0; sent < SMALL_WINDOW_KEY.perMinute + 1; sent += 1)
        statuses.push((await app.request('/v1/pets?limit=1')).status);
      const exposition = await scrape(telemetry.metrics as Metrics);
      const refused = statuses.filter((status) => status === 429).length;
      expect(refused).toBe(1);
      expect(exposition.value('animal_store_rate_limit_refusals_total', { code: 'rate_limited' })).toBe(refused);
      expect(exposition.value('animal_store_rate_limit_refusals_total', { code: 'key_banned' })).toBe(0);
      const labels = { method: 'GET', route: '/pets', operation: 'listPets' };
      expect(exposition.histogram(DURATION, { ...labels, status: '429' }).count).toBe(refused);
      expect(exposition.histogram(DURATION, { ...labels, status: '200' }).count).toBe(SMALL_WINDOW_KEY.perMinute);
    } finally {
      await app.close();
    }
  });

  it('counts idempotent replays and the size of each group commit', async () => {
    const telemetry = await openTelemetry({ metrics: { host: '127.0.0.1', port: 0 }, tracing: undefined }, '1.0.0');
    const app = await createTestApp({ telemetry });
    try {
      const create = (key: string) =>
        app.request('/v1/pets', {
          method: 'POST',
          json: { name: 'Rex', categoryId: 1 },
          headers: { 'Idempotency-Key': key },
        });
      // Created in one turn of the event loop: one group commit of four.
      const firsts = await Promise.all(['a', 'b', 'c', 'd'].map(create));
      expect(firsts.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
      const repeat = await create('a');
      expect(repeat.headers.get('Idempotent-Replayed')).toBe('true');
      const exposition = await scrape(telemetry.metrics as Metrics);
      expect(exposition.value('animal_store_idempotent_replays_total')).toBe(1);
      expect(exposition.histogram('animal_store_group_commit_batch_size')).toEqual({ count: 1, sum: 4 });
    } finally {
      await app.close();
    }
  });

  it('counts 503s by the dependency that could not answer', async () => {
    const metrics = await createMetrics();
    const contract = loadContract();
    const down = { hit: async () => Promise.reject(new UnavailableError('limiter', 'Redis is down')) };
    const service = await openService(
      {
        contract,
        logger: createLogger('silent'),
        clientAddress: () => '192.0.2.1',
        telemetry: { observe: () => ({ answered: metrics.answered }) },
      },
      {
        storage: sqliteStorage(openDatabase(':memory:', contract), ':memory:', systemClock, contract),
        limiters: { keys: down, addresses: down, ping: async () => {}, close: async () => {}, description: 'down' },
      },
    );
    try {
      const { secret } = await service.storage.keys.create({ plan: 'free' });
      const answer = await service.app.request('/v1/pets', { headers: { Authorization: `Bearer ${secret}` } });
      expect(answer.status).toBe(503);
      const exposition = await scrape(metrics);
      expect(exposition.value('animal_store_unavailable_total', { dependency: 'limiter' })).toBe(1);
      expect(exposition.value('animal_store_unavailable_total', { dependency: 'storage' })).toBe(0);
    } finally {
      await service.close();
    }
  });
});
