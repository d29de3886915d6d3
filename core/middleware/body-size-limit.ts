import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errors } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/**
 * Counts the bytes actually received, whether or not `Content-Length` is sent or honest. A body
 * with a declared length is judged by that length alone: Node's parser delivers exactly that many
 * bytes and never more. Only a body without one is counted as it streams in, because touching the
 * stream makes the HTTP adapter build a whole Fetch `Request`, which costs a fifth of a `POST`.
 */
export function limitBodySize(maxBytes: number): MiddlewareHandler<AppEnv> {
  const refuse = (): never => {
    throw errors.payloadTooLarge();
  };
  const countWhileStreaming = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return async (c, next) => {
    const declaredLength = c.req.header('Content-Length');
    if (declaredLength === undefined || c.req.header('Transfer-Encoding') !== undefined) {
      return countWhileStreaming(c, next);
    }
    return Number(declaredLength) > maxBytes ? refuse() : next();
  };
}
