// The webhook endpoints of the key's line: registered with a secret shown once, listed and fetched
// without it, deleted, refused for a URL that is not https to a public address and beyond the
// line's limit. Every case that registers an endpoint deletes it again: the suite's one key has a
// line of at most the contract's limit of endpoints.
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { collectionRoleOf } from '../../../contract/collections.ts';
import type { components } from '../../../generated/openapi.ts';
import { responseCase } from '../../support/conformance/cases.ts';
import { type ApiRequest, errorCode, expectStatus, send, sendUnchecked } from '../../support/conformance/client.ts';
import { target } from '../../support/conformance/target.ts';
import { defined } from '../../support/defined.ts';

type Created = components['schemas']['WebhookEndpointCreated'];

const PATH = '/webhook-endpoints';
const LIMIT = defined(
  collectionRoleOf(loadContract(), 'createWebhookEndpoint')?.collection.ownerLimit,
  'x-owner-limit',
).items;
const NEW_ENDPOINT = { url: 'https://93.184.215.14/hooks', events: ['pet.created'] };
/**
 * The server (also behind the proxy) keeps the endpoints, enforces the line's limit and replays
 * registrations under an Idempotency-Key; the mocks answer a case's request (its `Prefer`) from
 * the contract's examples (the stateful mocks' own endpoints are tested in test/mock/webhooks.test.ts).
 */
const keepsEndpoints = target.name === 'server' || target.name === 'proxy';
/** An id the service could issue, of an endpoint that does not exist. */
const UNKNOWN_ID = 'we_AAAAAAAAAAAAAAAAAAAAAA';
/** The endpoint of the contract's examples, which the static mock answers for any id. */
const EXAMPLE_ID = 'we_3kT9qWmZx1B7vLp0aRn5Yc';

async function register(headers: Record<string, string> = {}): Promise<Created> {
  const request: ApiRequest = { method: 'POST', path: PATH, json: NEW_ENDPOINT, headers };
  const response = await send('createWebhookEndpoint', request);
  expectStatus(request, response, 201);
  return response.body as Created;
}

async function remove(id: string): Promise<void> {
  const request: ApiRequest = { method: 'DELETE', path: `${PATH}/${id}` };
  expectStatus(request, await send('deleteWebhookEndpoint', request), 204);
}

/** Runs `work` on a registered endpoint (the example one on the static mock), deleting it after. */
async function withEndpoint(work: (id: string) => Promise<void>): Promise<void> {
  if (!keepsEndpoints) return work(EXAMPLE_ID);
  const { id } = await register();
  try {
    await work(id);
  } finally {
    await send('deleteWebhookEndpoint', { method: 'DELETE', path: `${PATH}/${id}` });
  }
}

describe('listWebhookEndpoints: GET /webhook-endpoints (experimental)', () => {
  responseCase('listWebhookEndpoints', 200, "with the key line's endpoints, without their secrets", async (call) => {
    await withEndpoint(async () => {
      const response = await call({ path: PATH });
      expect((response.body as object[]).length).toBeGreaterThan(0);
      for (const endpoint of response.body as object[]) expect(endpoint).not.toHaveProperty('secret');
    });
  });

  responseCase('listWebhookEndpoints', 400, 'validation_failed when limit is 101, above the range', async (call) => {
    const response = await call({ path: PATH, query: { limit: '101' }, example: 'ErrorInvalidLimit' });
    expect(errorCode(response)).toBe('validation_failed');
  });
});

describe('createWebhookEndpoint: POST /webhook-endpoints (experimental)', () => {
  responseCase('createWebhookEndpoint', 201, 'with the endpoint, its whsec_ secret and its Location', async (call) => {
    const response = await call({ path: PATH, json: NEW_ENDPOINT });
    const created = response.body as Created;
    expect(created.secret).toMatch(/^whsec_/);
    expect(response.headers.get('Location')).toMatch(/^\/v1\/webhook-endpoints\/we_/);
    if (keepsEndpoints) await remove(created.id);
  });

  for (const [reason, url] of [
    ['http', 'http://93.184.215.14/hooks'],
    ['a private address', 'https://10.0.0.7/hooks'],
    ['the cloud metadata address', 'https://169.254.169.254/latest'],
  ] as const) {
    responseCase('createWebhookEndpoint', 400, `validation_failed naming url for ${reason}`, async (call) => {
      const response = await call({
        path: PATH,
        json: { url, events: ['pet.created'] },
        example: 'ErrorPrivateWebhookUrl',
      });
      expect(errorCode(response)).toBe('validation_failed');
      expect((response.body as { details: Array<{ name: string }> }).details[0]?.name).toBe('url');
    });
  }

  responseCase('createWebhookEndpoint', 409, "endpoint_limit_reached beyond the key line's limit", async (call) => {
    if (!keepsEndpoints) {
      const response = await call({ path: PATH, json: NEW_ENDPOINT, example: 'ErrorEndpointLimitReached' });
      // A mock that cannot be told the example answers the first of the declared 409's.
      if (target.capabilities.preferHeader) expect(errorCode(response)).toBe('endpoint_limit_reached');
      return;
    }
    const created: string[] = [];
    try {
      // Registered until the line is full (other cases may hold an endpoint of it for a moment).
      for (let tries = 0; tries <= LIMIT; tries++) {
        const response = await sendUnchecked({ method: 'POST', path: PATH, json: NEW_ENDPOINT });
        if (response.status !== 201) break;
        created.push((response.body as Created).id);
      }
      const response = await call({ path: PATH, json: NEW_ENDPOINT });
      expect(errorCode(response)).toBe('endpoint_limit_reached');
    } finally {
      for (const id of created) await remove(id);
    }
  });

  responseCase(
    'createWebhookEndpoint',
    422,
    'idempotency_key_reused when the key was sent with another body',
    async (call) => {
      const key = randomUUID();
      const first = keepsEndpoints ? await register({ 'Idempotency-Key': key }) : undefined;
      try {
        const response = await call({
          path: PATH,
          json: { ...NEW_ENDPOINT, events: ['order.created'] },
          headers: { 'Idempotency-Key': key },
        });
        expect(errorCode(response)).toBe('idempotency_key_reused');
      } finally {
        if (first) await remove(first.id);
      }
    },
  );
});

describe('getWebhookEndpoint: GET /webhook-endpoints/{endpointId} (experimental)', () => {
  responseCase('getWebhookEndpoint', 200, 'with the endpoint, without its secret', async (call) => {
    await withEndpoint(async (id) => {
      const response = await call({ path: `${PATH}/${id}` });
      expect(response.body).not.toHaveProperty('secret');
    });
  });

  responseCase('getWebhookEndpoint', 400, 'validation_failed for an id the service never issues', async (call) => {
    const response = await call({ path: `${PATH}/42` });
    expect(errorCode(response)).toBe('validation_failed');
  });

  responseCase('getWebhookEndpoint', 404, 'not_found when the line has no endpoint of the id', async (call) => {
    const response = await call({ path: `${PATH}/${UNKNOWN_ID}` });
    expect(errorCode(response)).toBe('not_found');
  });
});

describe('deleteWebhookEndpoint: DELETE /webhook-endpoints/{endpointId} (experimental)', () => {
  responseCase('deleteWebhookEndpoint', 204, 'and the endpoint is gone', async (call) => {
    const id = keepsEndpoints ? (await register()).id : EXAMPLE_ID;
    const response = await call({ path: `${PATH}/${id}` });
    expect(response.text).toBe('');
    if (keepsEndpoints) {
      const request: ApiRequest = { method: 'GET', path: `${PATH}/${id}` };
      expectStatus(request, await send('getWebhookEndpoint', request), 404);
    }
  });

  responseCase('deleteWebhookEndpoint', 400, 'validation_failed for an id the service never issues', async (call) => {
    const response = await call({ path: `${PATH}/42` });
    expect(errorCode(response)).toBe('validation_failed');
  });

  responseCase('deleteWebhookEndpoint', 404, 'not_found when the line has no endpoint of the id', async (call) => {
    const response = await call({ path: `${PATH}/${UNKNOWN_ID}` });
    expect(errorCode(response)).toBe('not_found');
  });
});
