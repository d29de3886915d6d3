// Webhooks as a receiver sees them: each create a subscribed endpoint asked for arrives signed so
// that the standardwebhooks package verifies it, with the body the create answered; failures are
// retried on the contract's schedule with the same webhook-id, then given up; a revoked key line
// gets nothing more; a create that did not commit sends nothing. A change (PATCH) arrives as its
// `.updated` event with the body the change answered; a change that changed nothing sends none.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { webhookDelivery } from '../../../contract/webhooks.ts';
import type { components } from '../../../generated/openapi.ts';
import type { SqliteIdempotencyStore } from '../../../server/storage/sqlite/idempotency.ts';
import { defined } from '../../support/defined.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';

type Created = components['schemas']['WebhookEndpointCreated'];

const contract = loadContract();
const { retryDelaysSeconds } = webhookDelivery(contract.document);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(): Promise<TestApp> {
  const t = await createTestApp({ webhooksAllowPrivate: true });
  // Signatures are checked against the receiver's clock, as a real receiver does.
  t.clock.set(Date.now());
  cleanups.push(async () => t.close());
  return t;
}

async function receiver(answer?: (index: number) => number): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(answer);
  cleanups.push(() => started.close());
  return started;
}

async function subscribe(t: TestApp, url: string, events: string[], secret?: string): Promise<Created> {
  const response = await t.request('/v1/webhook-endpoints', {
    method: 'POST',
    json: { url, events },
    ...(secret && { headers: { Authorization: `Bearer ${secret}` } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Created;
}

const createPet = async (t: TestApp, name = 'Rex') =>
  (await t.request('/v1/pets', { method: 'POST', json: { name, categoryId: 1 } })).json();

const deliveryRow = (t: TestApp, id: string) =>
  t.db.prepare('SELECT status, attempts, last_error AS lastError FROM webhook_deliveries WHERE id = ?').get(id) as
    | { status: string; attempts: number; lastError: string | null }
    | undefined;

describe('pet.created and order.created', () => {
  it('reach the endpoints subscribed to them, signed so that standardwebhooks verifies them, with the body the create answered', async () => {
    const t = await app();
    const pets = await receiver();
    const orders = await receiver();
    const petEndpoint = await subscribe(t, pets.url, ['pet.created']);
    const orderEndpoint = await subscribe(t, orders.url, ['order.created']);
    const pet = await createPet(t);
    const order = await (
      await t.request('/v1/store/orders', { method: 'POST', json: { petId: (pet as { id: number }).id, quantity: 1 } })
    ).json();

    await vi.waitFor(() => expect(pets.received).toHaveLength(1));
    await vi.waitFor(() => expect(orders.received).toHaveLength(1));
    const petHook = defined(pets.received[0], 'the pet webhook');
    const orderHook = defined(orders.received[0], 'the order webhook');
    const verifiedPet = new Webhook(petEndpoint.secret).verify(petHook.body, signatureHeaders(petHook));
    expect(verifiedPet).toEqual({ type: 'pet.created', timestamp: expect.any(String), data: pet });
    const verifiedOrder = new Webhook(orderEndpoint.secret).verify(orderHook.body, signatureHeaders(orderHook));
    expect(verifiedOrder).toMatchObject({ type: 'order.created', data: order });
    expect(petHook.headers['content-type']).toBe('application/json');
    expect(petHook.headers['user-agent']).toBe(`AnimalStore-Webhooks/${contract.document.info.version}`);
    expect(petHook.headers['webhook-id']).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    // Another endpoint's secret does not verify it.
    expect(() => new Webhook(orderEndpoint.secret).verify(petHook.body, signatureHeaders(petHook))).toThrow();
  });

  it('are retried on the contract schedule with the same webhook-id, then marked failed', async () => {
    const t = await app();
    const failing = await receiver(() => 500);
    await subscribe(t, failing.url, ['pet.created']);
    await createPet(t);
    for (const [index, delay] of retryDelaysSeconds.entries()) {
      await vi.waitFor(() => expect(failing.received).toHaveLength(index + 1));
      const id = String(defined(failing.received[0], 'the first attempt').headers['webhook-id']);
      await vi.waitFor(() => expect(deliveryRow(t, id)?.attempts).toBe(index + 1));
      t.clock.advance(delay * 1000);
    }
    await vi.waitFor(() => expect(failing.received).toHaveLength(retryDelaysSeconds.length + 1));
    const ids = new Set(failing.received.map(({ headers }) => headers['webhook-id']));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    await vi.waitFor(() =>
      expect(deliveryRow(t, String(id))).toMatchObject({ status: 'failed', lastError: 'answered 500' }),
    );
    expect(await t.storage.webhooks.failed(10)).toEqual([expect.objectContaining({ id, type: 'pet.created' })]);
  });

  it('follow no redirect: a 3xx is a failed attempt, retried later', async () => {
    const t = await app();
    const redirecting = await receiver((index) => (index === 0 ? 302 : 204));
    await subscribe(t, redirecting.url, ['pet.created']);
    await createPet(t);
    await vi.waitFor(() => expect(redirecting.received).toHaveLength(1));
    const id = String(defined(redirecting.received[0], 'the first attempt').headers['webhook-id']);
    await vi.waitFor(() => expect(deliveryRow(t, id)).toMatchObject({ status: 'pending', lastError: 'answered 302' }));
    t.clock.advance((retryDelaysSeconds[0] ?? 0) * 1000);
    await vi.waitFor(() => expect(deliveryRow(t, id)).toMatchObject({ status: 'delivered', attempts: 2 }));
  });

  it("are sent to no endpoint of a revoked key's line", async () => {
    const t = await app();
    const revokedReceiver = await receiver();
    const activeReceiver = await receiver();
    const revoked = await t.keys.create({ plan: 'free' });
    await subscribe(t, revokedReceiver.url, ['pet.created'], revoked.secret);
    await subscribe(t, activeReceiver.url, ['pet.created']);
    await createPet(t, 'Before');
    await vi.waitFor(() => expect(revokedReceiver.received).toHaveLength(1));
    await t.keys.revoke(revoked.record.id);
    await createPet(t, 'After');
    await vi.waitFor(() => expect(activeReceiver.received).toHaveLength(2));
    expect(revokedReceiver.received).toHaveLength(1);
  });

  it('are not recorded for a create that did not commit', async () => {
    const t = await app();
    const hooks = await receiver();
    await subscribe(t, hooks.url, ['pet.created']);
    const idempotency = t.storage.idempotency as SqliteIdempotencyStore;
    // The answer is recorded in the create's transaction, after the item and its event: failing
    // there rolls all three back.
    vi.spyOn(idempotency, 'recordNow').mockImplementationOnce(() => {
      throw new Error('the commit failed');
    });
    const failed = await t.request('/v1/pets', {
      method: 'POST',
      json: { name: 'Lost', categoryId: 1 },
      headers: { 'Idempotency-Key': 'lost' },
    });
    expect(failed.status).toBe(500);
    await createPet(t, 'Kept');
    await vi.waitFor(() => expect(hooks.received).toHaveLength(1));
    expect(JSON.parse(defined(hooks.received[0], 'the webhook').body).data.name).toBe('Kept');
    expect(t.db.prepare('SELECT count(*) AS n FROM webhook_deliveries').get()).toEqual({ n: 1 });
  });
});

const change = (t: TestApp, path: string, patch: object) =>
  t.request(path, {
    method: 'PATCH',
    body: JSON.stringify(patch),
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });

describe('pet.updated and order.updated', () => {
  it('reach the endpoints subscribed to them with the body the change answered, and a change that changed nothing sends none', async () => {
    const t = await app();
    const pets = await receiver();
    const petEndpoint = await subscribe(t, pets.url, ['pet.updated']);
    const { id } = (await createPet(t)) as { id: number };

    const first = await change(t, `/v1/pets/${id}`, { status: 'pending' });
    expect(first.status).toBe(200);
    const pending = await first.json();
    expect((await change(t, `/v1/pets/${id}`, { status: 'pending' })).status).toBe(200);
    const renamed = await (await change(t, `/v1/pets/${id}`, { name: 'Rexy' })).json();

    await vi.waitFor(() => expect(pets.received).toHaveLength(2));
    const events = pets.received.map((hook) =>
      new Webhook(petEndpoint.secret).verify(hook.body, signatureHeaders(hook)),
    );
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'pet.updated', timestamp: expect.any(String), data: pending },
        { type: 'pet.updated', timestamp: expect.any(String), data: renamed },
      ]),
    );
    // The create and the change to the same status recorded nothing for this endpoint.
    expect(t.db.prepare('SELECT count(*) AS count FROM webhook_deliveries').get()).toEqual({ count: 2 });
  });

  it('are not recorded for a change the contract refuses', async () => {
    const t = await app();
    const orders = await receiver();
    await subscribe(t, orders.url, ['order.updated']);
    const pet = (await createPet(t)) as { id: number };
    const order = (await (
      await t.request('/v1/store/orders', { method: 'POST', json: { petId: pet.id, quantity: 1 } })
    ).json()) as { id: number };

    // placed -> delivered skips approved: a 409, and no event.
    expect((await change(t, `/v1/store/orders/${order.id}`, { status: 'delivered' })).status).toBe(409);
    const approved = await (await change(t, `/v1/store/orders/${order.id}`, { status: 'approved' })).json();

    await vi.waitFor(() => expect(orders.received).toHaveLength(1));
    expect(JSON.parse(defined(orders.received[0], 'the order webhook').body)).toMatchObject({
      type: 'order.updated',
      data: approved,
    });
    expect(t.db.prepare('SELECT count(*) AS count FROM webhook_deliveries').get()).toEqual({ count: 1 });
  });
});

describe('pet.deleted', () => {
  it('reaches the endpoints subscribed to it with the animal as it was last answered, and a refused removal sends none', async () => {
    const t = await app();
    const pets = await receiver();
    const endpoint = await subscribe(t, pets.url, ['pet.deleted']);
    const { id } = (await createPet(t)) as { id: number };
    const changed = await (await change(t, `/v1/pets/${id}`, { status: 'pending' })).json();

    const stale = await t.request(`/v1/pets/${id}`, {
      method: 'DELETE',
      headers: { 'If-Match': '"0000000000000000"' },
    });
    expect(stale.status).toBe(412);
    expect((await t.request(`/v1/pets/${id}`, { method: 'DELETE' })).status).toBe(204);

    await vi.waitFor(() => expect(pets.received).toHaveLength(1));
    const [hook] = pets.received;
    expect(
      new Webhook(endpoint.secret).verify(
        defined(hook, 'the webhook').body,
        signatureHeaders(defined(hook, 'the webhook')),
      ),
    ).toEqual({
      type: 'pet.deleted',
      timestamp: expect.any(String),
      data: changed,
    });
    expect(t.db.prepare('SELECT count(*) AS count FROM webhook_deliveries').get()).toEqual({ count: 1 });
  });
});
