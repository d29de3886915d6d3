import type { MiddlewareHandler } from 'hono';
import type { Contract } from '../../contract/contract.ts';
import type { AppEnv } from '../http-types.ts';
import { answerNotFound } from '../not-found.ts';
import { setHeader } from './answer-headers.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/**
 * How long a browser may reuse a preflight's answer: the most Chromium keeps one (Firefox keeps
 * longer), sparing a page one round trip before each call.
 */
const PREFLIGHT_MAX_AGE_SECONDS = '7200';

/** The origins allowed: a list, or a test each origin must pass. */
export type CorsOrigins = readonly string[] | ((origin: string) => boolean);

interface CorsOptions {
  /** The origins a page may call from. */
  origins: CorsOrigins;
  /** The methods the app serves at a path (its `Allow`), none where it serves nothing. */
  servedAt: (path: string) => string[];
  /** Request headers a page may send: those the contract lets a request carry, and the request id. */
  allowHeaders: string[];
  /** Response headers a page may read: those the contract's answers declare, and the request id. */
  exposeHeaders: string[];
  /**
   * Answer `Access-Control-Allow-Credentials: true`, so that a page's `fetch(..., { credentials:
   * 'include' })` may send cookies (the mocks' `mock-scenario` cookie). The service reads no
   * cookie and leaves it off, the default.
   */
  credentials?: boolean;
}

/**
 * Lets browsers on `origins` call with `allowMethods`, sending and reading the headers named.
 *
 * Not hono/cors: it appends `Vary: Origin` after the handler has answered, and a header added to a
 * finished answer makes the HTTP adapter build a whole Fetch `Response` with a body stream, which
 * costs as much as the rest of a request. Here every header is set before the handler runs.
 */
function cors({
  origins,
  servedAt,
  allowHeaders,
  exposeHeaders,
  credentials = false,
}: CorsOptions): MiddlewareHandler<AppEnv> {
  const allowed = allowHeaders.join(',');
  const exposed = exposeHeaders.join(',');
  const allows = typeof origins === 'function' ? origins : (origin: string) => origins.includes(origin);
  return async (c, next) => {
    // The answer depends on the Origin asked from, so caches must keep one per origin.
    setHeader(c, 'Vary', 'Origin');
    const origin = c.req.header('Origin');
    if (origin !== undefined && allows(origin)) {
      setHeader(c, 'Access-Control-Allow-Origin', origin);
      if (credentials) setHeader(c, 'Access-Control-Allow-Credentials', 'true');
      setHeader(c, 'Access-Control-Expose-Headers', exposed);
    }
    // An OPTIONS that is no preflight is answered as any method the path lacks (405 with `Allow`).
    if (c.req.method !== 'OPTIONS' || c.req.header('Access-Control-Request-Method') === undefined) return next();
    // A preflight: answered here, before any key is asked for, with the methods of its path.
    setHeader(c, 'Vary', 'Origin, Access-Control-Request-Headers');
    const methods = servedAt(c.req.path).join(', ');
    if (methods === '') return answerNotFound(c);
    return c.body(null, 204, {
      Allow: methods,
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': allowed,
      'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
    });
  };
}

/** What the mocks let browsers do beyond the contract's headers: their cookie, `Prefer`, their delay header. */
export type CorsExtras = Partial<Pick<CorsOptions, 'allowHeaders' | 'exposeHeaders' | 'credentials'>>;

/**
 * CORS for an app that serves `contract`: a page may send every header the contract lets a
 * request carry and read every header its answers declare, with the request id and `extras`.
 */
export function contractCors(
  contract: Contract,
  origins: CorsOrigins,
  servedAt: (path: string) => string[],
  { allowHeaders = [], exposeHeaders = [], credentials }: CorsExtras = {},
): MiddlewareHandler<AppEnv> {
  const { request, response } = contract.headerNames;
  return cors({
    origins,
    servedAt,
    allowHeaders: [...request, REQUEST_ID_HEADER, ...allowHeaders],
    exposeHeaders: [...response, REQUEST_ID_HEADER, ...exposeHeaders],
    credentials,
  });
}
