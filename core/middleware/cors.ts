import type { MiddlewareHandler } from 'hono';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../contract/index.ts';
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
  // Tells a retried create that it got the first answer again.
  IDEMPOTENT_REPLAYED_HEADER,
];

/**
 * How long a browser may reuse a preflight's answer: the most Chromium keeps one (Firefox keeps
 * longer), sparing a page one round trip before each call.
 */
const PREFLIGHT_MAX_AGE_SECONDS = '7200';

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
  /** Response headers a page may read beside the service's own (the mocks' delay). */
  exposeHeaders?: string[];
}

/**
 * Lets browsers on `origins` call with `allowMethods`, with the headers a client needs.
 *
 * Not hono/cors: it appends `Vary: Origin` after the handler has answered, and a header added to a
 * finished answer makes the HTTP adapter build a whole Fetch `Response` with a body stream, which
 * costs as much as the rest of a request. Here every header is set before the handler runs.
 */
export function corsFor(
  origins: CorsOrigins,
  allowMethods: string[],
  { credentials = false, allowHeaders: extraHeaders = [], exposeHeaders: extraExposed = [] }: CorsExtras = {},
): MiddlewareHandler<AppEnv> {
  // The typed client sends an Idempotency-Key with every create.
  const allowHeaders = ['Authorization', 'Content-Type', 'X-Request-Id', IDEMPOTENCY_KEY_HEADER, ...extraHeaders].join(
    ',',
  );
  const exposeHeaders = [...EXPOSED_HEADERS, ...extraExposed].join(',');
  const methods = allowMethods.join(',');
  const allows = typeof origins === 'function' ? origins : (origin: string) => origins.includes(origin);
  return async (c, next) => {
    // The answer depends on the Origin asked from, so caches must keep one per origin.
    c.header('Vary', 'Origin', { append: true });
    const origin = c.req.header('Origin');
    if (origin !== undefined && allows(origin)) {
      c.header('Access-Control-Allow-Origin', origin);
      if (credentials) c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Access-Control-Expose-Headers', exposeHeaders);
    }
    if (c.req.method !== 'OPTIONS') return next();
    // A preflight: answered here, before any key is asked for.
    c.header('Vary', 'Access-Control-Request-Headers', { append: true });
    return c.body(null, 204, {
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': allowHeaders,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
    });
  };
}
