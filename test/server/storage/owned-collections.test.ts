// An owned collection with random ids, the same on SQLite and PostgreSQL, shown on the webhook
// endpoints: ids in the form of their schema's pattern, each owner's items paged in the order
// stored, at most the create's `x-owner-limit` per owner even when created at once, and a removed
// endpoint's deliveries removed with it.
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionRoleOf } from '../../../contract/collections.ts';
import { resolveRef } from '../../../contract/document.ts';
import { postgresReachable } from '../../../support/backing-services.ts';
import { defined } from '../../support/defined.ts';
import { type StorageEngine, useEmptyDatabase } from '../../support/storage-engines.ts';

const contract = loadContract();
const endpoints = defined(collectionRoleOf(contract, 'createWebhookEndpoint'), 'the endpoints collection').collection;
const limit = defined(endpoints.ownerLimit, "the create's x-owner-limit");
const idPattern = new RegExp(
  defined(
    resolveRef<{ pattern?: string }>(contract.document, {
      $ref: '#/components/schemas/WebhookEndpointId',
    }).pattern,
    "the id's pattern",
  ),
);

describe('an owned collection with random ids on SQLite', () => ownedBehaviour('SQLite'));
describe.skipIf(!(await postgresReachable()))('an owned collection with random ids on PostgreSQL', () =>
  ownedBehaviour('PostgreSQL'),
);

function ownedBehaviour(engine: StorageEngine): void {
  const database = useEmptyDatabase(engine);
  const store = () => database.storage().collections(endpoints.name);
  const endpoint = (keyLine: number, events = ['pet.created']) => ({
    url: 'https://93.184.215.14/hooks',
    events,
    secret: `whsec_${Buffer.alloc(32).toString('base64')}`,
    createdAt: '2026-12-02T12:00:00.000Z',
    keyLine,
  });

  it("makes each id at random in the form of the id's pattern", async () => {
    const created = await Promise.all([store().create(endpoint(1)), store().create(endpoint(1))]);
    for (const { id } of created) expect(id).toMatch(idPattern);
    expect(created[0]?.id).not.toBe(created[1]?.id);
    expect(await store().get(defined(created[0], 'an endpoint').id)).toEqual(created[0]);
  });

  it("pages an owner's items in the order they were stored, by position, and none of another owner's", async () => {
    const first = await store().create(endpoint(1));
    await store().create(endpoint(2));
    const second = await store().create(endpoint(1));
    const third = await store().create(endpoint(1));
    const page = await store().list({ limit: 2, filters: { keyLine: 1 } });
    expect(page.items).toEqual([first, second]);
    expect(page.hasMore).toBe(true);
    const next = await store().list({ limit: 2, filters: { keyLine: 1 }, after: page.position });
    expect(next).toMatchObject({ items: [third], hasMore: false });
  });

  it(`refuses the creates of an owner beyond its ${limit.items}, also made at once, and not another owner's`, async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: limit.items + 2 }, () => store().create(endpoint(1))),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(limit.items);
    for (const outcome of outcomes.filter((each) => each.status === 'rejected'))
      expect(outcome.reason).toMatchObject({ status: 409, code: limit.code });
    expect((await store().list({ limit: 100, filters: { keyLine: 1 } })).items).toHaveLength(limit.items);
    expect(await store().create(endpoint(2))).toMatchObject({ keyLine: 2 });
  });

  it("removes an endpoint's deliveries with it, in the removal's transaction", async () => {
    const storage = database.storage();
    const { record } = await storage.keys.create({ plan: 'free' });
    const kept = await store().create(endpoint(record.lineage));
    const removed = await store().create(endpoint(record.lineage));
    await storage.collections('pets').create({ name: 'Rex', categoryId: 1, status: 'available' });
    await store().delete(removed.id, () => {});
    const rows = (await database.query('SELECT endpoint_id FROM webhook_deliveries')) as Array<{
      endpoint_id: string;
    }>;
    expect(rows).toEqual([{ endpoint_id: kept.id }]);
  });
}
