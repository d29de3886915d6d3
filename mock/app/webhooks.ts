// The stateful mock's webhooks: the endpoints registered through the API kept in memory (any URL:
// the mock is a development tool bound to loopback), and each create's event sent at once, signed
// as the service signs it (Standard Webhooks, by the `standardwebhooks` package), once, without
// retries. `POST /__mock/events` sends the contract's example of an event type on request.
// No Node module: the sending is handed in (the platform's fetch, fetchWebhook).
import { Webhook } from 'standardwebhooks';
import type { Collection, WriteKind } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import { webhookEvents } from '../../contract/webhooks.ts';
import type { RouteHandler } from '../../core/collections/handlers.ts';
import type { Item } from '../../core/collections/store.ts';
import { ApiError } from '../../core/errors.ts';
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
  /** The endpoint operations, served from memory instead of the contract's examples. */
  handlers: Record<string, RouteHandler>;
  /** Tells the endpoints subscribed to its event of a write to `collection`. */
  written(collection: Collection, change: WriteKind, item: Item): void;
  /** Sends the contract's example of `type` to the endpoints subscribed to it; how many it was sent to. */
  sendExample(type: string): Promise<number>;
  /** Forgets every endpoint (`POST /__mock/reset`). */
  reset(): void;
}

const randomPart = (bytes: number) => crypto.getRandomValues(new Uint8Array(bytes));

export function mockWebhooks(contract: Contract, send: SendWebhook, logger: Logger): MockWebhooks {
  const events = webhookEvents(contract.document);
  const servedPath = contract.operation('listWebhookEndpoints').servedPath;
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

  const notFound = (id: string) => new ApiError(404, 'not_found', `No webhook endpoint has the id ${id}.`);
  const withoutSecret = ({ secret: _, ...endpoint }: Endpoint) => endpoint;
  const handlers: Record<string, RouteHandler> = {
    listWebhookEndpoints: (async (c) => c.json(endpoints.map(withoutSecret), 200)) as RouteHandler,
    createWebhookEndpoint: (async (c, { body }: { body: Pick<Endpoint, 'url' | 'events' | 'description'> }) => {
      const secret = randomPart(32);
      const endpoint: Endpoint = {
        id: `we_${toBase64Url(randomPart(16))}`,
        ...body,
        createdAt: new Date().toISOString(),
        secret: `whsec_${btoa(String.fromCharCode(...secret))}`,
      };
      endpoints.push(endpoint);
      c.header('Location', `${servedPath}/${endpoint.id}`);
      return c.json(endpoint, 201);
    }) as RouteHandler,
    getWebhookEndpoint: (async (c, { path }: { path: { endpointId: string } }) => {
      const found = endpoints.find((endpoint) => endpoint.id === path.endpointId);
      if (!found) throw notFound(path.endpointId);
      return c.json(withoutSecret(found), 200);
    }) as RouteHandler,
    deleteWebhookEndpoint: (async (c, { path }: { path: { endpointId: string } }) => {
      const before = endpoints.length;
      endpoints = endpoints.filter((endpoint) => endpoint.id !== path.endpointId);
      if (endpoints.length === before) throw notFound(path.endpointId);
      return c.body(null, 204);
    }) as RouteHandler,
  };

  return {
    handlers,
    written(collection, change, item) {
      const type = collection.events[change];
      // Sent beside the answer, as the service does: the write does not wait for it.
      if (type !== undefined) void deliver(type, item);
    },
    async sendExample(type) {
      const event = events.find((candidate) => candidate.type === type);
      if (!event) {
        const known = events.map((candidate) => candidate.type).join(', ');
        throw new ApiError(
          400,
          'validation_failed',
          `The contract declares no webhook of type "${type}"; it has ${known}.`,
        );
      }
      return deliver(type, (event.example as { data?: unknown } | undefined)?.data);
    },
    reset() {
      endpoints = [];
    },
  };
}
