// The stateful mock's webhooks: each write's event sent at once to the endpoints registered
// through the API (any URL: the mock is a development tool bound to loopback), signed as the
// service signs it (Standard Webhooks, by the `standardwebhooks` package), once, without retries.
// The endpoints are the collection layer's, like any collection's items; this part follows their
// creates and removals. `POST /__mock/events` sends the contract's example of an event type.
// No Node module: the sending is handed in (the platform's fetch, fetchWebhook).
import { Webhook } from 'standardwebhooks';
import { type Collection, collectionRoleOf, type WriteKind } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import { webhookEvents } from '../../contract/webhooks.ts';
import type { Item } from '../../core/collections/store.ts';
import { errors } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { toBase64Url } from '../../core/pagination/base64url.ts';
import type { components } from '../../generated/openapi.ts';

type Endpoint = components['schemas']['WebhookEndpointCreated'];

/** Sends one signed webhook; resolves with the status answered. */
type SendWebhook = (url: string, headers: Record<string, string>, body: string) => Promise<number>;

/** One POST with the platform's fetch, no redirect followed, as the service sends them; the answer's status. */
export const fetchWebhook: SendWebhook = async (url, headers, body) => {
  const response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual' });
  await response.body?.cancel();
  return response.status;
};

export interface MockWebhooks {
  /** Tells the endpoints subscribed to its event of a write to `collection`; notes an endpoint registered or removed. */
  written(collection: Collection, change: WriteKind, item: Item): void;
  /** Sends the contract's example of `type` to the endpoints subscribed to it; how many it was sent to. */
  sendExample(type: string): Promise<number>;
  /** Forgets every endpoint, as the stores do (`POST /__mock/reset`). */
  reset(): void;
}

const randomPart = (bytes: number) => crypto.getRandomValues(new Uint8Array(bytes));

export function mockWebhooks(contract: Contract, send: SendWebhook, logger: Logger): MockWebhooks {
  const events = webhookEvents(contract.document);
  const endpointsCollection = collectionRoleOf(contract, 'createWebhookEndpoint')?.collection.name;
  const userAgent = `AnimalStore-Webhooks/${contract.document.info.version}`;
  let endpoints: Endpoint[] = [];

  const deliver = async (type: string, data: unknown) => {
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
    const subscribed = endpoints.filter((endpoint) => (endpoint.events as string[]).includes(type));
    await Promise.all(
      subscribed.map(async (endpoint) => {
        const id = `evt_${toBase64Url(randomPart(16))}`;
        const now = new Date();
        const headers = {
          'Content-Type': 'application/json',
          'User-Agent': userAgent,
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': new Webhook(endpoint.secret).sign(id, now, body),
        };
        const status = await send(endpoint.url, headers, body).catch((error: unknown) => String(error));
        if (typeof status !== 'number' || status < 200 || status > 299)
          logger.warn({ event: 'webhook_failed', webhookId: id, url: endpoint.url, answer: status });
      }),
    );
    return subscribed.length;
  };

  return {
    written(collection, change, item) {
      if (collection.name === endpointsCollection) {
        endpoints = endpoints.filter((endpoint) => endpoint.id !== item.id);
        if (change === 'created') endpoints.push(item as unknown as Endpoint);
      }
      const type = collection.events[change];
      // Sent beside the answer, as the service does: the write does not wait for it.
      if (type !== undefined) void deliver(type, item);
    },
    async sendExample(type) {
      const event = events.find((candidate) => candidate.type === type);
      if (!event) {
        const known = events.map((candidate) => candidate.type).join(', ');
        throw errors.mockControl(`The contract declares no webhook of type "${type}"; it has ${known}.`);
      }
      return deliver(type, (event.example as { data?: unknown } | undefined)?.data);
    },
    reset() {
      endpoints = [];
    },
  };
}
