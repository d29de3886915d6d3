import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../generated/rules.ts';
import { clientAborted, clientClosedRequest } from './client-abort.ts';
import { ApiError, errorBody, UnavailableError } from './errors.ts';
import type { AppEnv } from './http-types.ts';
import type { Logger } from './logger.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whatever is thrown while a request is handled becomes the contract's Error body, here and nowhere else. */
export function answerErrors(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ApiError) {
      c.set('answered', { errorCode: error.body.code });
      return c.json(error.body, error.status, error.headers);
    }
    if (clientAborted(error, c.req.raw)) return clientClosedRequest();
    if (error instanceof UnavailableError) {
      const what = error.dependency === 'storage' ? 'its storage' : 'its rate limiter';
      logger.error({ requestId: c.get('requestId'), event: `${error.dependency}_unavailable`, reason: error.reason });
      c.set('answered', { errorCode: 'service_unavailable', unavailable: error.dependency });
      const retryAfter = String(UNAVAILABLE_RETRY_AFTER_SECONDS);
      // The reason stays in the log: the client learns what may have happened and when to retry.
      // A write that fails once the operation runs may fail after its commit reached the storage
      // (a statement timeout while PostgreSQL commits), so only a read, or a request refused before
      // its operation ran, can promise that nothing changed.
      const uncertain =
        error.dependency === 'storage' && c.get('operationStarted') === true && !SAFE_METHODS.has(c.req.method);
      const message = uncertain
        ? `The service could not confirm with ${what} that this request was carried out: it may have been stored. ` +
          `Check (list or fetch) before repeating it; retry after ${retryAfter} seconds.`
        : `The service cannot reach ${what} right now, so nothing was changed; retry after ${retryAfter} seconds.`;
      return c.json(errorBody(503, 'service_unavailable', message), 503, { 'Retry-After': retryAfter });
    }
    if (error instanceof HTTPException && error.status < 500) {
      c.set('answered', { errorCode: 'validation_failed' });
      return c.json(errorBody(400, 'validation_failed', 'The request could not be read.'), 400);
    }
    logger.error({ requestId: c.get('requestId'), error: error instanceof Error ? error.stack : String(error) });
    c.set('answered', { errorCode: 'internal_error' });
    return c.json(
      errorBody(
        500,
        'internal_error',
        `An unexpected error occurred; quote request id ${c.get('requestId')} when reporting it.`,
      ),
      500,
    );
  };
}
