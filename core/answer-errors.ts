import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../generated/rules.ts';
import { clientAborted, clientClosedRequest } from './client-abort.ts';
import { ApiError, errors, UnavailableError } from './errors.ts';
import type { AppEnv } from './http-types.ts';
import type { Logger } from './logger.ts';
import { answerJson } from './middleware/answer-headers.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whatever is thrown while a request is handled becomes the contract's Error body, here and nowhere else. */
export function answerErrors(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ApiError) {
      c.set('answered', { errorCode: error.body.code });
      return answerJson(c, error.body, error.status, error.headers);
    }
    if (clientAborted(error, c.req.raw)) return clientClosedRequest();
    if (error instanceof UnavailableError) {
      logger.error({ requestId: c.get('requestId'), event: `${error.dependency}_unavailable`, reason: error.reason });
      c.set('answered', { errorCode: 'service_unavailable', unavailable: error.dependency });
      // The reason stays in the log: the client learns what may have happened and when to retry.
      // A write that fails once the operation runs may fail after its commit reached the storage
      // (a statement timeout while PostgreSQL commits).
      const uncertain =
        error.dependency === 'storage' && c.get('operationStarted') === true && !SAFE_METHODS.has(c.req.method);
      const { body, status, headers } = errors.unavailable(
        error.dependency,
        uncertain,
        UNAVAILABLE_RETRY_AFTER_SECONDS,
      );
      return answerJson(c, body, status, headers);
    }
    if (error instanceof HTTPException && error.status < 500) {
      c.set('answered', { errorCode: 'validation_failed' });
      const { body, status } = errors.unreadableRequest();
      return answerJson(c, body, status);
    }
    logger.error({ requestId: c.get('requestId'), error: error instanceof Error ? error.stack : String(error) });
    c.set('answered', { errorCode: 'internal_error' });
    const { body, status } = errors.internalError();
    return answerJson(c, body, status);
  };
}
