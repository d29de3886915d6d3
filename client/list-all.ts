import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.ts';
import { AnimalStoreError, type ErrorBody } from './errors.ts';
import { findLink } from './link-header.ts';

type ListOperation<P extends keyof paths> = paths[P] extends { get: infer Get } ? Get : never;
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** The contract's paths whose GET answers a JSON array and takes a `cursor`: the lists paged by `Link`. */
export type PagedPath = {
  [P in keyof paths]: ListOperation<P> extends {
    parameters: { query?: { cursor?: string } };
    responses: { 200: infer Ok };
  }
    ? JsonOf<Ok> extends unknown[]
      ? P
      : never
    : never;
}[keyof paths];

/** A paged list's query without `cursor`: the pages after the first come from the `Link` header. */
export type PagedQuery<P extends PagedPath> =
  ListOperation<P> extends { parameters: { query?: infer Query } } ? Omit<NonNullable<Query>, 'cursor'> : never;

/** What one page of the list at `P` holds. */
export type PagedItem<P extends PagedPath> =
  ListOperation<P> extends { responses: { 200: infer Ok } }
    ? JsonOf<Ok> extends Array<infer Item>
      ? Item
      : never
    : never;

/**
 * Every item of the list at `path` matching `query`, in the list's order, fetched page by page by
 * following each page's `Link: <...>; rel="next"` exactly as the service wrote it. Stops at the
 * first page without one; a non-2xx page throws an AnimalStoreError carrying the Error body.
 */
export async function* listAll<P extends PagedPath>(
  client: Client<paths>,
  baseUrl: string,
  path: P,
  query: PagedQuery<P> = {} as PagedQuery<P>,
  { signal }: { signal?: AbortSignal } = {},
): AsyncGenerator<PagedItem<P>, void, undefined> {
  // openapi-fetch's overloads cannot be resolved for a path that is still a type parameter.
  const get = client.GET as (
    path: string,
    init: { params: { query: unknown }; signal?: AbortSignal; middleware: unknown[] },
  ) => Promise<{ data?: unknown; error?: ErrorBody; response: Response }>;
  let next: URL | undefined;
  do {
    const page = next;
    // The request still goes through the client (auth, retries, notices); only its URL is the link's.
    const followLink = page && {
      onRequest: ({ request }: { request: Request }) =>
        new Request(page, { method: request.method, headers: request.headers, signal: request.signal }),
    };
    const { data, error, response } = await get(path, {
      params: { query },
      signal,
      middleware: followLink ? [followLink] : [],
    });
    if (!response.ok || data === undefined) throw new AnimalStoreError(`GET ${path}`, response, error);
    yield* data as Array<PagedItem<P>>;
    next = nextPage(response, baseUrl);
  } while (next);
}

function nextPage(response: Response, baseUrl: string): URL | undefined {
  const target = findLink(response.headers.get('Link'), 'next');
  if (target === undefined) return undefined;
  // The link is path-absolute (`/v1/pets?...`): it resolves against the origin, not the base path.
  const url = new URL(target, baseUrl);
  // The request carries the API key; it must not leave the service's origin.
  if (url.origin !== new URL(baseUrl).origin) {
    throw new Error(`The next-page link ${target} points to another origin than ${baseUrl}; not following it.`);
  }
  return url;
}
