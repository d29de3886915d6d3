// Idempotent creates through the service's HTTP layer, on both engines: a repeat of an
// `Idempotency-Key` replays the first answer, never creates twice, and the rules come from the contract.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { idempotencyRule } from '../../contract/idempotency.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { CollectionStore } from '../../core/collections/store.ts';
import { UnavailableError } from '../../core/errors.ts';
import { memoryLimiters } from '../../core/limiter/memory-rate-limiter.ts';
import { banPolicy } from '../../core/limiter/rate-policy.ts';
import { createLogger } from '../../core/logger.ts';
import { createServiceApp } from '../../server/app/service-app.ts';
import type { Storage } from '../../server/storage/storage.ts';
import { postgresReachable } from '../../support/backing-services.ts';
import { defined } from '../support/defined.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { expectError } from '../support/http.ts';
import { type StorageEngine, useEmptyDatabase } from '../support/storage-engines.ts';

const contract = loadContract();
/** How long an answer is replayed, as the contract's `x-retention-hours` sets it. */
const RETENTION_MS = defined(
  idempotencyRule(contract, contract.operation('createPet')),
  'the Idempotency-Key of createPet',
).retentionMs;

const NEW_PET = { name: 'Rex', categoryId: 1 };

describe('createPet and createOrder with Idempotency-Key on SQLite', () => idempotentCreates('SQLite'));
describe.skipIf(!(await postgresReachable()))('createPet and createOrder with Idempotency-Key on PostgreSQL', () =>
  idempotentCreates('PostgreSQL'),
);

/** The service's app on `storage`, and a request with one of its keys. */
async function serviceOn(storage: Storage, clock: FakeClock) {
  const app = createServiceApp({
    contract,
    storage,
    clock,
    limiters: memoryLimiters({ clock, ban: banPolicy(rateLimitRules(contract.document).ban) }),
    logger: createLogger('silent'),
    clientAddress: () => '192.0.2.1',
    probes: { storage: async () => {}, limiter: async () => {}, stopping: () => false },
  });
  const newKey = async () =>
    (await storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 })).secret;
  const firstKey = await newKey();
  const post = (path: string, body: unknown, idempotencyKey?: string, apiKey = firstKey) =>
    app.request(path, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: {
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': 'application/json',
        ...(idempotencyKey !== undefined && { 'Idempotency-Key': idempotencyKey }),
      },
    });
  return { app, post, newKey };
}

function idempotentCreates(engine: StorageEngine): void {
  const clock = new FakeClock();
  const database = useEmptyDatabase(engine, clock);
  const pets = () => database.storage().collections('pets') as CollectionStore;
  const storedPets = async () => (await pets().list({ limit: 100 })).items;

  it('replays the first answer byte for byte, with its Location, marked Idempotent-Replayed, and stores one pet', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    const key = randomUUID();
    const first = await post('/v1/pets', NEW_PET, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const firstBody = await first.text();

    for (let repeat = 0; repeat < 2; repeat++) {
      const again = await post('/v1/pets', NEW_PET, key);
      expect(again.status).toBe(201);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
      expect(again.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(await again.text()).toBe(firstBody);
    }
    expect(await storedPets()).toHaveLength(1);
  });

  it('creates a pet per request without the header, as before', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    await post('/v1/pets', NEW_PET);
    await post('/v1/pets', NEW_PET);
    expect(await storedPets()).toHaveLength(2);
  });

  it.each([
    ['another body', '/v1/pets', { name: 'Fido', categoryId: 1 }],
    ['the same fields, written differently', '/v1/pets', '{"categoryId":1,"name":"Rex"}'],
    ['another operation', '/v1/store/orders', { petId: 1, quantity: 1 }],
  ])('answers 422 idempotency_key_reused to the key sent again with %s, creating nothing', async (_, path, body) => {
    const { post } = await serviceOn(database.storage(), clock);
    const key = randomUUID();
    expect((await post('/v1/pets', NEW_PET, key)).status).toBe(201);
    await expectError(await post(path, body, key), 422, 'idempotency_key_reused', 'Idempotency-Key');
    expect(await storedPets()).toHaveLength(1);
    expect((await database.storage().collections('store_orders').list({ limit: 10 })).items).toEqual([]);
  });

  it('answers 409 idempotency_key_in_progress, with Retry-After, to a repeat while the first is being answered, then replays', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    const store = pets();
    const createOnce = store.createOnce.bind(store);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const spy = vi.spyOn(store, 'createOnce').mockImplementationOnce(async (...args) => {
      await held;
      return createOnce(...args);
    });
    const key = randomUUID();
    const first = post('/v1/pets', NEW_PET, key);
    await expect.poll(() => spy.mock.calls.length).toBe(1);

    const repeat = await post('/v1/pets', NEW_PET, key);
    await expectError(repeat, 409, 'idempotency_key_in_progress', 'Idempotency-Key');
    expect(Number(repeat.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    release();
    const answered = await first;
    expect(answered.status).toBe(201);
    const replayed = await post('/v1/pets', NEW_PET, key);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replayed.text()).toBe(await answered.text());
    expect(await storedPets()).toHaveLength(1);
  });

  it('replays until the retention the contract sets has passed, then creates again', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    const key = randomUUID();
    const first = await post('/v1/pets', NEW_PET, key);
    clock.advance(RETENTION_MS);
    expect((await post('/v1/pets', NEW_PET, key)).headers.get('Idempotent-Replayed')).toBe('true');
    clock.advance(1);
    const afterExpiry = await post('/v1/pets', NEW_PET, key);
    expect(afterExpiry.status).toBe(201);
    expect(afterExpiry.headers.get('Idempotent-Replayed')).toBeNull();
    expect(afterExpiry.headers.get('Location')).not.toBe(first.headers.get('Location'));
    // The new answer is kept in its turn.
    const replayed = await post('/v1/pets', NEW_PET, key);
    expect(replayed.headers.get('Location')).toBe(afterExpiry.headers.get('Location'));
    expect(await storedPets()).toHaveLength(2);
  });

  it('deletes expired answers as later ones are recorded, without a request of their own', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    for (let index = 0; index < 3; index++) await post('/v1/pets', NEW_PET, `old-${index}`);
    clock.advance(RETENTION_MS + 60_000);
    await post('/v1/pets', NEW_PET, 'new');
    const rows = (await database.query('SELECT key FROM idempotency_keys ORDER BY key')) as Array<{ key: string }>;
    expect(rows.map((row) => row.key)).toEqual(['new']);
  });

  it('keeps the keys of different API keys apart: the same key creates once for each', async () => {
    const { post, newKey } = await serviceOn(database.storage(), clock);
    const otherApiKey = await newKey();
    const key = randomUUID();
    const mine = await post('/v1/pets', NEW_PET, key);
    const theirs = await post('/v1/pets', NEW_PET, key, otherApiKey);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
    expect(theirs.headers.get('Location')).not.toBe(mine.headers.get('Location'));
    // A different body under the other API key is no reuse of mine.
    expect((await post('/v1/pets', { name: 'Other', categoryId: 2 }, 'shared', otherApiKey)).status).toBe(201);
    expect((await post('/v1/pets', NEW_PET, 'shared')).status).toBe(201);
    expect(await storedPets()).toHaveLength(4);
  });

  it('does not keep a 503: the retry creates the pet once', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    vi.spyOn(pets(), 'createOnce').mockRejectedValueOnce(new UnavailableError('storage', 'the disk is full'));
    const key = randomUUID();
    await expectError(await post('/v1/pets', NEW_PET, key), 503, 'service_unavailable');
    const retry = await post('/v1/pets', NEW_PET, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await storedPets()).toHaveLength(1);
  });

  it('keeps a 4xx: an order refused for an unknown pet is refused again, replayed, after the pet exists', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    const key = randomUUID();
    const order = { petId: 1, quantity: 1 };
    const refused = await post('/v1/store/orders', order, key);
    const refusedBody = await refused.clone().text();
    await expectError(refused, 400, 'validation_failed', 'petId');
    expect((await post('/v1/pets', NEW_PET)).status).toBe(201);
    const again = await post('/v1/store/orders', order, key);
    expect(again.status).toBe(400);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.text()).toBe(refusedBody);
    // A new key places the order.
    expect((await post('/v1/store/orders', order, randomUUID())).status).toBe(201);
  });

  it.each([
    ['an invalid body', 400, 'validation_failed', { name: '', categoryId: 1 }],
    ['a body that is no JSON', 400, 'malformed_json', '{"name":'],
    ['a body over the limit', 413, 'payload_too_large', { name: 'Rex', categoryId: 1, note: 'a'.repeat(20_000) }],
  ] as const)(
    'keeps nothing of %s, refused before the create ran: the corrected request with the same key creates once',
    async (_, status, code, refusedBody) => {
      const { post } = await serviceOn(database.storage(), clock);
      const key = randomUUID();
      await expectError(await post('/v1/pets', refusedBody, key), status, code);

      const corrected = await post('/v1/pets', NEW_PET, key);
      expect(corrected.status).toBe(201);
      expect(corrected.headers.get('Idempotent-Replayed')).toBeNull();
      expect((await post('/v1/pets', NEW_PET, key)).headers.get('Idempotent-Replayed')).toBe('true');
      expect(await storedPets()).toHaveLength(1);
    },
  );

  it('replays an order as it replays a pet', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    await post('/v1/pets', NEW_PET);
    const key = randomUUID();
    const first = await post('/v1/store/orders', { petId: 1, quantity: 2 }, key);
    expect(first.status).toBe(201);
    const again = await post('/v1/store/orders', { petId: 1, quantity: 2 }, key);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(await again.text()).toBe(await first.text());
    expect((await database.storage().collections('store_orders').list({ limit: 10 })).items).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['with a non-ASCII character', 'clé'],
  ])('answers 400 invalid_idempotency_key to a key %s, naming the header and storing nothing', async (_, key) => {
    const { post } = await serviceOn(database.storage(), clock);
    await expectError(await post('/v1/pets', NEW_PET, key), 400, 'invalid_idempotency_key', 'Idempotency-Key');
    expect(await storedPets()).toEqual([]);
  });

  it('accepts a key of 255 visible ASCII characters', async () => {
    const { post } = await serviceOn(database.storage(), clock);
    const key = '~'.repeat(255);
    expect((await post('/v1/pets', NEW_PET, key)).status).toBe(201);
    expect((await post('/v1/pets', NEW_PET, key)).headers.get('Idempotent-Replayed')).toBe('true');
  });
}
