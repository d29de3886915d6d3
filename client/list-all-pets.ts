import type { Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.ts';
import { AnimalStoreError } from './errors.ts';
import { findLink } from './link-header.ts';
import type { Pet } from './schemas.ts';

/** The `GET /pets` query without `cursor`: the pages after the first come from the `Link` header. */
export type ListAllPetsQuery = Omit<NonNullable<paths['/pets']['get']['parameters']['query']>, 'cursor'>;

/**
 * Every pet matching `query`, in ascending id order, fetched page by page by following each
 * page's `Link: <...>; rel="next"` exactly as the service wrote it. Stops at the first page
 * without one; a non-2xx page throws an AnimalStoreError carrying the Error body.
 */
export async function* listAllPets(
  client: Client<paths>,
  baseUrl: string,
  query: ListAllPetsQuery = {},
  { signal }: { signal?: AbortSignal } = {},
): AsyncGenerator<Pet, void, undefined> {
  let next: URL | undefined;
  do {
    const page = next;
    // The request still goes through the client (auth, retries, notices); only its URL is the link's.
    const followLink = page && {
      onRequest: ({ request }: { request: Request }) =>
        new Request(page, { method: request.method, headers: request.headers, signal: request.signal }),
    };
    const { data, error, response } = await client.GET('/pets', {
      params: { query },
      signal,
      middleware: followLink ? [followLink] : [],
    });
    if (!response.ok || data === undefined) throw new AnimalStoreError('GET /pets', response, error);
    yield* data;
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
