import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ContractPath } from '../../contract/index.ts';
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

/** Lets browsers on `origins` call the contract's paths, with the headers a client needs. */
export function corsFor(origins: string[], paths: readonly ContractPath[]): MiddlewareHandler<AppEnv> {
  const allowMethods = [...new Set(paths.flatMap((path) => path.allow))];
  const allowHeaders = ['Authorization', 'Content-Type', 'X-Request-Id'];
  return cors({ origin: origins, allowMethods, exposeHeaders: EXPOSED_HEADERS, allowHeaders });
}
