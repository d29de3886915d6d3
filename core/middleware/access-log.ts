import type { MiddlewareHandler } from 'hono';
import { CLIENT_CLOSED_REQUEST } from '../client-abort.ts';
import type { AppEnv } from '../http-types.ts';
import type { Logger } from '../logger.ts';

/**
 * One line per request. It names the path without the query string and never the
 * `Authorization` header, so no key reaches the logs.
 */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info({
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ...(c.res.status === CLIENT_CLOSED_REQUEST && { event: 'client aborted' }),
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}
