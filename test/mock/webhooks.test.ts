// The mocks and webhooks: the stateful mock keeps the endpoints registered through the API and
// sends each create's and each change's event to them at once, signed so that standardwebhooks
// verifies it (a change that changed nothing sends none), and
// sends the contract's example of any event type on `POST /__mock/events`; the static mock
// answers the endpoint operations from the contract.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { webhookEvents } from '../../contract/webhooks.ts';
import type { components } from '../../generated/openapi.ts';
import { startMock } from '../../mock/node/server.ts';
import { startStatefulMock } from '../../mock/node/stateful-server.ts';
import { defined } from '../support/defined.ts';
import { signatureHeaders, startWebhookReceiver } from '../support/webhook-receiver.ts';

type Created = components['schemas']['WebhookEndpointCreated'];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const events = webhookEvents(loadContract().document);

async function statefulMock() {
  const mock = await startStatefulMock();
  cleanups.push(() => mock.close());
  const request = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    fetch(`${mock.url}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json', ...init.headers },
      ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    });
  return { mock, request };
}

async function receiver() {
  const started = await startWebhookReceiver();
  cleanups.push(() => started.close());
  return started;
}

describe('the stateful mock', () => {
  it('keeps the endpoints registered, and sends each create to those subscribed, signed', async () => {
    const { request } = await statefulMock();
    const hooks = await receiver();
    const registered = await request('/v1/webhook-endpoints', {
      method: 'POST',
      json: { url: hooks.url, events: ['pet.created'] },
    });
    expect(registered.status).toBe(201);
    const endpoint = (await registered.json()) as Created;
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = (await (await request('/v1/webhook-endpoints')).json()) as Array<Record<string, unknown>>;
    expect(listed).toEqual([expect.objectContaining({ id: endpoint.id, url: hooks.url })]);
    expect(listed[0]).not.toHaveProperty('secret');

    const pet = await (await request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } })).json();
    await vi.waitFor(() => expect(hooks.received).toHaveLength(1));
    const delivered = defined(hooks.received[0], 'the delivery');
    expect(new Webhook(endpoint.secret).verify(delivered.body, signatureHeaders(delivered))).toMatchObject({
      type: 'pet.created',
      data: pet,
    });

    expect((await request(`/v1/webhook-endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await request(`/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
  });

  it('sends each change to those subscribed to its .updated event, and nothing for a change that changed nothing', async () => {
    const { request } = await statefulMock();
    const hooks = await receiver();
    const endpoint = (await (
      await request('/v1/webhook-endpoints', { method: 'POST', json: { url: hooks.url, events: ['pet.updated'] } })
    ).json()) as Created;
    const { id } = (await (
      await request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } })
    ).json()) as { id: number };
    const patch = (body: object) =>
      request(`/v1/pets/${id}`, {
        method: 'PATCH',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });

    const pending = await (await patch({ status: 'pending' })).json();
    expect((await patch({ status: 'pending' })).status).toBe(200);
    const renamed = await (await patch({ name: 'Rexy' })).json();

    await vi.waitFor(() => expect(hooks.received).toHaveLength(2));
    const sent = hooks.received.map((hook) => new Webhook(endpoint.secret).verify(hook.body, signatureHeaders(hook)));
    expect(sent).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'pet.updated', data: pending }),
        expect.objectContaining({ type: 'pet.updated', data: renamed }),
      ]),
    );
    // Sent at once, in the order of the changes: had the second change sent one, it came before the third's.
    expect(hooks.received).toHaveLength(2);
  });

  it.each(events)('sends the contract example of $type on POST /__mock/events', async ({ type, example }) => {
    const { mock, request } = await statefulMock();
    const hooks = await receiver();
    const endpoint = (await (
      await request('/v1/webhook-endpoints', { method: 'POST', json: { url: hooks.url, events: [type] } })
    ).json()) as Created;
    const sent = await fetch(`${mock.url}/__mock/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type }),
    });
    expect(await sent.json()).toEqual({ type, endpoints: 1 });
    await vi.waitFor(() => expect(hooks.received).toHaveLength(1));
    const delivered = defined(hooks.received[0], 'the delivery');
    expect(new Webhook(endpoint.secret).verify(delivered.body, signatureHeaders(delivered))).toMatchObject({
      type,
      data: (example as { data: unknown }).data,
    });
  });

  it('sends a removal to those subscribed to its .deleted event, with the item as it was', async () => {
    const { request } = await statefulMock();
    const hooks = await receiver();
    const endpoint = (await (
      await request('/v1/webhook-endpoints', { method: 'POST', json: { url: hooks.url, events: ['pet.deleted'] } })
    ).json()) as Created;
    const pet = await (await request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } })).json();
    expect((await request(`/v1/pets/${(pet as { id: number }).id}`, { method: 'DELETE' })).status).toBe(204);

    await vi.waitFor(() => expect(hooks.received).toHaveLength(1));
    const [hook] = hooks.received;
    const sent = new Webhook(endpoint.secret).verify(
      defined(hook, 'the webhook').body,
      signatureHeaders(defined(hook, 'the webhook')),
    );
    expect(sent).toMatchObject({ type: 'pet.deleted', data: pet });
  });

  it('refuses POST /__mock/events for a type the contract does not declare', async () => {
    const { mock } = await statefulMock();
    const sent = await fetch(`${mock.url}/__mock/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // No contract names an event so: `type` is the noun of a collection, a dot and a kind of write.
      body: JSON.stringify({ type: 'no such.event' }),
    });
    expect(sent.status).toBe(400);
    expect(((await sent.json()) as { message: string }).message).toContain('"no such.event"');
  });
});

describe('the static mock', () => {
  it('answers the endpoint operations from the contract', async () => {
    const mock = await startMock();
    cleanups.push(() => mock.close());
    const headers = { Authorization: 'Bearer ask_any', 'Content-Type': 'application/json' };
    const created = await fetch(`${mock.url}/v1/webhook-endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'https://hooks.example.com/x', events: ['pet.created'] }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ url: 'https://hooks.example.com/x', secret: expect.any(String) });
    expect((await fetch(`${mock.url}/v1/webhook-endpoints`, { headers })).status).toBe(200);
  });
});
