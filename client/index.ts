import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchOptions,
  type FetchResponse,
  type Middleware,
} from 'openapi-fetch';
import type { paths } from '../generated/openapi.ts';
import { REQUEST_MEDIA_TYPES } from '../generated/rules.ts';
import { type DeprecationHandler, deprecationNotices, warnOnConsole } from './deprecation.ts';
import { listAll, type PagedItem, type PagedPath, type PagedQuery } from './list-all.ts';
import { type RateLimit, rateLimit } from './rate-limit.ts';
import { type FetchLike, IDEMPOTENCY_KEY, type RetryOptions, retryingFetch } from './retrying-fetch.ts';

// Every schema of the contract under its own name (`Pet`, `Order`, `NewOrder`...), as generated.
export type * from '../generated/openapi.ts';
export type { DeprecationHandler, DeprecationNotice } from './deprecation.ts';
export { AnimalStoreError, type ErrorBody } from './errors.ts';
export { findLink, type Link, parseLinkHeader } from './link-header.ts';
export type { PagedItem, PagedPath, PagedQuery } from './list-all.ts';
export { type RateLimit, rateLimit } from './rate-limit.ts';
export type { FetchLike, RetryOptions } from './retrying-fetch.ts';
export { verifyWebhook, type WebhookEvent, type WebhookHeaders, WebhookVerificationError } from './webhooks.ts';

export interface AnimalStoreClientOptions {
  /** The API's root, with its version path: `https://api.example.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` on every request. */
  apiKey: string;
  /** Sends one request; `globalThis.fetch` by default. Tests pass the app's own `fetch`. */
  fetch?: FetchLike;
  /** How 429s and network failures are retried; see RetryOptions for the defaults. */
  retry?: RetryOptions;
  /** Called once per operation per client when the service says it is deprecated; one `console.warn` line by default. */
  onDeprecation?: DeprecationHandler;
}

/** A path that takes a `PATCH`: a change, sent as a JSON merge patch. */
type PatchPath = ClientPathsWithMethod<Client<paths>, 'patch'>;
type PatchInit<P extends PatchPath> = FetchOptions<paths[P]['patch']>;

export type AnimalStoreClient = Omit<Client<paths>, 'PATCH'> & {
  /**
   * Changes an item. Its `init` is checked as written, not inferred (as openapi-fetch's methods
   * do), so a misspelt field of a merge patch, whose fields are all optional, does not compile.
   */
  PATCH<P extends PatchPath>(
    path: P,
    init: PatchInit<P>,
  ): Promise<FetchResponse<paths[P]['patch'], PatchInit<P>, `${string}/${string}`>>;
  /** The rate-limit headers of a response, typed; undefined when absent. */
  rateLimit(response: Response): RateLimit | undefined;
  /** Every item of a paged list (`/pets`, `/store/orders`) matching `query`, across all pages. */
  listAll<P extends PagedPath>(
    path: P,
    query?: PagedQuery<P>,
    options?: { signal?: AbortSignal },
  ): AsyncGenerator<PagedItem<P>, void, undefined>;
  /** Every pet matching `query`, across all pages: `listAll('/pets', query)`. */
  listAllPets(
    query?: PagedQuery<'/pets'>,
    options?: { signal?: AbortSignal },
  ): AsyncGenerator<PagedItem<'/pets'>, void, undefined>;
};

export function createAnimalStoreClient(options: AnimalStoreClientOptions): AnimalStoreClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch(send, options.retry) });
  client.use(
    bearerAuth(options.apiKey),
    declaredMediaType(),
    idempotencyKeys(),
    deprecationNotices(options.onDeprecation ?? warnOnConsole),
  );
  return Object.assign(client, {
    rateLimit,
    listAll: <P extends PagedPath>(path: P, query?: PagedQuery<P>, listOptions?: { signal?: AbortSignal }) =>
      listAll(client, options.baseUrl, path, query, listOptions),
    listAllPets: (query?: PagedQuery<'/pets'>, listOptions?: { signal?: AbortSignal }) =>
      listAll(client, options.baseUrl, '/pets', query, listOptions),
  });
}

/**
 * A fresh `Idempotency-Key` on every POST (a create) that has none, so the create can be retried
 * after a dropped connection or a 503: each retry is a clone of the request and carries the same
 * key, and the service answers it with the first answer instead of creating again.
 */
function idempotencyKeys(): Middleware {
  return {
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has(IDEMPOTENCY_KEY))
        request.headers.set(IDEMPOTENCY_KEY, crypto.randomUUID());
      return request;
    },
  };
}

/**
 * The body's `Content-Type` as the contract declares it for the operation: openapi-fetch sends
 * every JSON body as `application/json`, which a merge patch (`application/merge-patch+json`) is not.
 */
function declaredMediaType(): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const declared = REQUEST_MEDIA_TYPES[`${request.method} ${schemaPath}`];
      if (declared && request.headers.get('Content-Type') === 'application/json')
        request.headers.set('Content-Type', declared);
      return request;
    },
  };
}

function bearerAuth(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
}
