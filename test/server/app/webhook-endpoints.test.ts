// The webhook endpoints of a key line, as callers see them: registered with a secret shown once,
// listed and fetched without it, kept across a rotation, invisible to other lines, at most the
// contract's limit, and only to public https addresses.
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionRoleOf } from '../../../contract/collections.ts';
import type { components } from '../../../generated/openapi.ts';
import { hostResolver } from '../../../server/events/public-address.ts';
import { defined } from '../../support/defined.ts';
import { expectError } from '../../support/http.ts';
import { nextLink } from '../../support/link-header.ts';
import { type SilentNameServer, startSilentNameServer } from '../../support/silent-name-server.ts';
import { createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app.ts';

type Created = components['schemas']['WebhookEndpointCreated'];
type Endpoint = components['schemas']['WebhookEndpoint'];

const LIMIT = defined(
  collectionRoleOf(loadContract(), 'createWebhookEndpoint')?.collection.ownerLimit,
  'x-owner-limit',
).items;
const PUBLIC_URL = 'https://93.184.215.14/hooks';

/** Short, so the test waits little for a name that never resolves. */
const RESOLVE_MS = 300;

const apps: TestApp[] = [];
const nameServers: SilentNameServer[] = [];
afterEach(async () => {
  await Promise.all([...apps.splice(0), ...nameServers.splice(0)].map((each) => each.close()));
});

async function silentNameServer(): Promise<SilentNameServer> {
  const server = await startSilentNameServer();
  nameServers.push(server);
  return server;
}

async function app(options: TestAppOptions = {}): Promise<TestApp> {
  const created = await createTestApp(options);
  apps.push(created);
  return created;
}

const register = (t: TestApp, json: unknown = { url: PUBLIC_URL, events: ['pet.created'] }, secret?: string) =>
  t.request('/v1/webhook-endpoints', {
    method: 'POST',
    json,
    ...(secret && { headers: { Authorization: `Bearer ${secret}` } }),
  });

describe('createWebhookEndpoint', () => {
  it('answers 201 with the endpoint, its Location and a whsec_ secret of 32 random bytes', async () => {
    const t = await app();
    const response = await register(t, {
      url: PUBLIC_URL,
      events: ['pet.created', 'order.created'],
      description: 'Stock',
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Created;
    expect(body).toMatchObject({ url: PUBLIC_URL, events: ['pet.created', 'order.created'], description: 'Stock' });
    expect(response.headers.get('Location')).toBe(`/v1/webhook-endpoints/${body.id}`);
    expect(Buffer.from(body.secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    const other = (await (await register(t)).json()) as Created;
    expect(other.secret).not.toBe(body.secret);
  });

  it(`refuses the endpoint after the ${LIMIT}th of a key line with 409 endpoint_limit_reached, storing nothing`, async () => {
    const t = await app();
    for (let made = 0; made < LIMIT; made++) expect((await register(t)).status).toBe(201);
    await expectError(await register(t), 409, 'endpoint_limit_reached');
    const listed = (await (await t.request('/v1/webhook-endpoints?limit=100')).json()) as Endpoint[];
    expect(listed).toHaveLength(LIMIT);
  });

  it('replays a registration retried with the same Idempotency-Key, secret included, and registers once', async () => {
    const t = await app();
    const post = () =>
      t.request('/v1/webhook-endpoints', {
        method: 'POST',
        json: { url: PUBLIC_URL, events: ['pet.created'] },
        headers: { 'Idempotency-Key': 'register-once' },
      });
    const first = await (await post()).json();
    const retried = await post();
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retried.json()).toEqual(first);
    expect((await (await t.request('/v1/webhook-endpoints')).json()) as Endpoint[]).toHaveLength(1);
  });

  // Every address class a webhook may not reach, and http: refused at registration.
  it.each([
    ['http', 'http://93.184.215.14/hooks'],
    ['IPv4 loopback', 'https://127.0.0.1/hooks'],
    ['IPv6 loopback', 'https://[::1]/hooks'],
    ['localhost', 'https://localhost/hooks'],
    ['RFC 1918 10/8', 'https://10.0.0.7/hooks'],
    ['RFC 1918 172.16/12', 'https://172.16.5.4/hooks'],
    ['RFC 1918 192.168/16', 'https://192.168.1.1/hooks'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest/meta-data'],
    ['IPv6 link-local', 'https://[fe80::1]/hooks'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/hooks'],
    ['unique-local fc00::/7', 'https://[fd12:3456::1]/hooks'],
    ['IPv4 multicast', 'https://224.0.0.1/hooks'],
    ['IPv6 multicast', 'https://[ff02::1]/hooks'],
    ['IPv4 unspecified', 'https://0.0.0.0/hooks'],
    ['IPv6 unspecified', 'https://[::]/hooks'],
    ['IPv4-mapped private', 'https://[::ffff:10.0.0.1]/hooks'],
    ['a decimal spelling of loopback', 'https://2130706433/hooks'],
  ])('refuses %s with 400 validation_failed naming url', async (_, url) => {
    const t = await app();
    const body = await expectError(
      await register(t, { url, events: ['pet.created'] }),
      400,
      'validation_failed',
      'url',
    );
    expect(body.details?.[0]).toMatchObject({ in: 'body', name: 'url' });
    expect((await (await t.request('/v1/webhook-endpoints')).json()) as Endpoint[]).toEqual([]);
  });

  // A name is resolved off the thread pool, with a time limit: a name whose servers never answer
  // holds its registration for that long and no longer.
  it('refuses a host whose name servers never answer with 400 naming the host once its time is up, storing nothing', async () => {
    const server = await silentNameServer();
    const t = await app({ resolveHost: hostResolver({ servers: [server.address], timeoutMs: RESOLVE_MS }) });
    const body = await expectError(
      await register(t, { url: 'https://hooks.example.test/in', events: ['pet.created'] }),
      400,
      'validation_failed',
      `hooks.example.test did not resolve within ${RESOLVE_MS} ms`,
    );
    expect(body.details?.[0]).toMatchObject({ in: 'body', name: 'url' });
    expect(server.queries()).toBeGreaterThan(0);
    expect((await (await t.request('/v1/webhook-endpoints')).json()) as Endpoint[]).toEqual([]);
  });

  it('answers 409 endpoint_limit_reached at the limit before resolving any name', async () => {
    const server = await silentNameServer();
    const t = await app({ resolveHost: hostResolver({ servers: [server.address], timeoutMs: RESOLVE_MS }) });
    for (let made = 0; made < LIMIT; made++) expect((await register(t)).status).toBe(201);
    await expectError(
      await register(t, { url: 'https://hooks.example.test/in', events: ['pet.created'] }),
      409,
      'endpoint_limit_reached',
    );
    expect(server.queries()).toBe(0);
  });

  it('takes http and private addresses under WEBHOOKS_ALLOW_PRIVATE', async () => {
    const t = await app({ webhooksAllowPrivate: true });
    expect((await register(t, { url: 'http://127.0.0.1:9/hooks', events: ['pet.created'] })).status).toBe(201);
  });
});

describe('listWebhookEndpoints', () => {
  it('pages through the key line oldest first, without secrets', async () => {
    const t = await app();
    const ids: string[] = [];
    for (let made = 0; made < 3; made++) ids.push(((await (await register(t)).json()) as Created).id);
    const first = await t.request('/v1/webhook-endpoints?limit=2');
    const page = (await first.json()) as Endpoint[];
    expect(page.map((endpoint) => endpoint.id)).toEqual(ids.slice(0, 2));
    for (const endpoint of page) expect(endpoint).not.toHaveProperty('secret');
    const next = defined(nextLink(first), 'the next page');
    const rest = (await (await t.request(next)).json()) as Endpoint[];
    expect(rest.map((endpoint) => endpoint.id)).toEqual(ids.slice(2));
  });
});

describe('getWebhookEndpoint and deleteWebhookEndpoint', () => {
  it('fetch the endpoint without its secret, and delete it with 204', async () => {
    const t = await app();
    const created = (await (await register(t)).json()) as Created;
    const fetched = await t.request(`/v1/webhook-endpoints/${created.id}`);
    expect(fetched.status).toBe(200);
    const { secret: _, ...withoutSecret } = created;
    expect(await fetched.json()).toEqual(withoutSecret);
    expect((await t.request(`/v1/webhook-endpoints/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(await t.request(`/v1/webhook-endpoints/${created.id}`), 404, 'not_found', created.id);
  });
});

describe('key isolation', () => {
  it("keeps another key line's endpoint a 404 for get and delete, and out of the list", async () => {
    const t = await app();
    const created = (await (await register(t)).json()) as Created;
    const other = await t.keys.create({ plan: 'free' });
    const as = { headers: { Authorization: `Bearer ${other.secret}` } };
    await expectError(await t.request(`/v1/webhook-endpoints/${created.id}`, as), 404, 'not_found');
    await expectError(
      await t.request(`/v1/webhook-endpoints/${created.id}`, { ...as, method: 'DELETE' }),
      404,
      'not_found',
    );
    expect(await (await t.request('/v1/webhook-endpoints', as)).json()).toEqual([]);
    expect((await t.request(`/v1/webhook-endpoints/${created.id}`)).status).toBe(200);
  });

  it('keeps the endpoints of a key line across a rotation', async () => {
    const t = await app();
    const old = await t.keys.create({ plan: 'free' });
    const created = (await (await register(t, undefined, old.secret)).json()) as Created;
    const rotated = defined(await t.keys.rotate(old.record.id, 0), 'the rotated key');
    const fetched = await t.request(`/v1/webhook-endpoints/${created.id}`, {
      headers: { Authorization: `Bearer ${rotated.secret}` },
    });
    expect(fetched.status).toBe(200);
  });
});
