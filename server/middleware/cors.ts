import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../http-types.ts';

/** Headers a browser client may read: it needs them to paginate, back off and notice deprecation. */
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Link',
  'Location',
  'Deprecation',
  'Sunset',
  'X-Request-Id',
];

/** The origins allowed: a list, or a test each origin must pass. */
export type CorsOrigins = readonly string[] | ((origin: string) => boolean);

/** What the mocks allow beyond the service: the service itself leaves both unset. */
export interface CorsExtras {
  /**
   * Answer `Access-Control-Allow-Credentials: true`, so that a page's `fetch(..., { credentials:
   * 'include' })` may send cookies (the mocks' `mock-scenario` cookie). The service reads no
   * cookie and never sets this.
   */
  credentials?: boolean;
  /** Request headers allowed beside the service's own (the mocks' `Prefer`). */
  allowHeaders?: string[];
}

/** Lets browsers on `origins` call with `allowMethods`, with the headers a client needs. */
export function corsFor(
  origins: CorsOrigins,
  allowMethods: string[],
  { credentials = false, allowHeaders: extraHeaders = [] }: CorsExtras = {},
): MiddlewareHandler<AppEnv> {
  const allowHeaders = ['Authorization', 'Content-Type', 'X-Request-Id', ...extraHeaders];
  const origin =
    typeof origins === 'function' ? (candidate: string) => (origins(candidate) ? candidate : null) : [...origins];
  return cors({ origin, allowMethods, exposeHeaders: EXPOSED_HEADERS, allowHeaders, credentials });
}
