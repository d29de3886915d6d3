// The webhook endpoints of the caller's key line: what the contract cannot say of them is whose
// they are (the line's, across rotations; another line's is not found), that the secret is made
// here and shown only in the 201, the most a line may have (`x-endpoint-limit`), and that the
// URL's address must be public.
import type { Contract } from '../../../contract/contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { ApiError, validationFailed } from '../../../core/errors.ts';
import type { AppContext, Handler } from '../../../core/http-types.ts';
import { createOnce } from '../../../core/idempotency/create-once.ts';
import type { CursorCodec } from '../../../core/pagination/cursor.ts';
import { newEndpointSecret } from '../../events/identifiers.ts';
import { type ResolveHost, webhookUrlProblem } from '../../events/public-address.ts';
import type { WebhookStore } from '../../storage/webhooks.ts';

export interface WebhookEndpointDeps {
  contract: Contract;
  webhooks: WebhookStore;
  cursors: CursorCodec;
  clock: Clock;
  /** WEBHOOKS_ALLOW_PRIVATE: http and private addresses accepted, for development and tests. */
  allowPrivate: boolean;
  /** How a target's host name is resolved at registration; the system's resolver by default. */
  resolveHost?: ResolveHost;
}

/** The cursors of the endpoint list name this list; none of a collection's is valid here. */
const LIST = 'webhook_endpoints';

/** The key line of the request's key: requireApiKey has refused a request without one. */
function lineOf(c: AppContext): number {
  const key = c.get('caller').apiKey;
  if (!key) throw new Error('A webhook endpoint operation ran without an API key.');
  return key.lineage;
}

/** The most endpoints a key line may have, from the create's `x-endpoint-limit`. */
export function endpointLimit(contract: Contract): number {
  const limit = contract.operation('createWebhookEndpoint').definition['x-endpoint-limit'];
  if (typeof limit !== 'number') throw new Error('createWebhookEndpoint sets no x-endpoint-limit.');
  return limit;
}

export function webhookEndpointHandlers({
  contract,
  webhooks,
  cursors,
  clock,
  allowPrivate,
  resolveHost,
}: WebhookEndpointDeps): {
  listWebhookEndpoints: Handler<'listWebhookEndpoints'>;
  createWebhookEndpoint: Handler<'createWebhookEndpoint'>;
  getWebhookEndpoint: Handler<'getWebhookEndpoint'>;
  deleteWebhookEndpoint: Handler<'deleteWebhookEndpoint'>;
} {
  const servedPath = contract.operation('listWebhookEndpoints').servedPath;
  const limit = endpointLimit(contract);
  const notFound = (id: string) => new ApiError(404, 'not_found', `No webhook endpoint has the id ${id}.`);
  return {
    listWebhookEndpoints: async (c, { query }) => {
      // The validator has filled in the contract's default `limit`.
      const pageSize = query.limit as number;
      const afterId =
        query.cursor === undefined ? 0 : cursors.decode(query.cursor, { collection: LIST, filters: {} }, []);
      const page = await webhooks.list(lineOf(c), pageSize, afterId);
      if (page.hasMore && page.lastPosition !== undefined) {
        const next = new URLSearchParams({ limit: String(pageSize) });
        next.set('cursor', cursors.encode({ collection: LIST, filters: {}, afterId: page.lastPosition }));
        c.header('Link', `<${servedPath}?${next}>; rel="next"`);
      }
      return c.json(page.items, 200);
    },
    createWebhookEndpoint: async (c, { body }) => {
      const problem = await webhookUrlProblem(body.url, allowPrivate, resolveHost);
      if (problem) throw validationFailed([{ in: 'body', name: 'url', message: problem }]);
      const fields = {
        url: body.url,
        events: body.events,
        ...(body.description !== undefined && { description: body.description }),
        secret: newEndpointSecret(),
        createdAt: new Date(clock.now()).toISOString(),
      };
      const response = await createOnce(c, webhooks.endpointsOf(lineOf(c), limit), fields, (endpoint) => ({
        status: 201,
        body: endpoint,
        location: `${servedPath}/${endpoint.id}`,
      }));
      return response as Awaited<ReturnType<Handler<'createWebhookEndpoint'>>>;
    },
    getWebhookEndpoint: async (c, { path }) => {
      const endpoint = await webhooks.get(lineOf(c), path.endpointId);
      if (!endpoint) throw notFound(path.endpointId);
      return c.json(endpoint, 200);
    },
    deleteWebhookEndpoint: async (c, { path }) => {
      if (!(await webhooks.delete(lineOf(c), path.endpointId))) throw notFound(path.endpointId);
      // 204 has no body, which the handler type (JSON answers) cannot express.
      return c.body(null, 204) as unknown as Awaited<ReturnType<Handler<'deleteWebhookEndpoint'>>>;
    },
  };
}
