import type { MiddlewareHandler } from 'hono';
import { CLIENT_CLOSED_REQUEST } from '../client-abort.ts';
import type { AppContext, AppEnv } from '../http-types.ts';
import type { Logger } from '../logger.ts';

/**
 * One line per request. It names the path without the query string, the key by its id and never
 * the `Authorization` header, so no key reaches the logs; the client's address and the trace id
 * tie the line to the caller and to the request's trace.
 */
export function accessLog(logger: Logger, clientAddress: (c: AppContext) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info({
      requestId: c.get('requestId'),
      trace_id: c.get('traceId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ...(c.res.status === CLIENT_CLOSED_REQUEST && { event: 'client aborted' }),
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      keyId: c.get('caller')?.apiKey?.id,
      clientAddress: clientAddress(c),
    });
  };
}
