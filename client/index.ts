import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../generated/openapi.ts';
import { type DeprecationHandler, deprecationNotices, warnOnConsole } from './deprecation.ts';
import { type ListAllPetsQuery, listAllPets } from './list-all-pets.ts';
import { type RateLimit, rateLimit } from './rate-limit.ts';
import { type FetchLike, type RetryOptions, retryingFetch } from './retrying-fetch.ts';
import type { Pet } from './schemas.ts';

export type { components, paths } from '../generated/openapi.ts';
export type { DeprecationHandler, DeprecationNotice } from './deprecation.ts';
export { AnimalStoreError, type ErrorBody } from './errors.ts';
export { findLink, type Link, parseLinkHeader } from './link-header.ts';
export type { ListAllPetsQuery } from './list-all-pets.ts';
export { type RateLimit, rateLimit } from './rate-limit.ts';
export type { FetchLike, RetryOptions } from './retrying-fetch.ts';
export type { NewPet, Pet, PetStatus } from './schemas.ts';

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

export type AnimalStoreClient = Client<paths> & {
  /** The rate-limit headers of a response, typed; undefined when absent. */
  rateLimit(response: Response): RateLimit | undefined;
  /** Every pet matching `query`, across all pages. */
  listAllPets(query?: ListAllPetsQuery, options?: { signal?: AbortSignal }): AsyncGenerator<Pet, void, undefined>;
};

export function createAnimalStoreClient(options: AnimalStoreClientOptions): AnimalStoreClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClient<paths>({ baseUrl: options.baseUrl, fetch: retryingFetch(send, options.retry) });
  client.use(bearerAuth(options.apiKey), deprecationNotices(options.onDeprecation ?? warnOnConsole));
  return Object.assign(client, {
    rateLimit,
    listAllPets: (query?: ListAllPetsQuery, listOptions?: { signal?: AbortSignal }) =>
      listAllPets(client, options.baseUrl, query, listOptions),
  });
}

function bearerAuth(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
}
