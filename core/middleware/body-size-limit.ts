import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

export function payloadTooLargeMessage(maxBytes: number): string {
  const readable = maxBytes % 1024 === 0 ? ` (${maxBytes / 1024} KiB)` : '';
  return `The request body is larger than ${maxBytes} bytes${readable}.`;
}

/**
 * Counts the bytes actually received, whether or not `Content-Length` is sent or honest. A body
 * with a declared length is judged by that length alone: Node's parser delivers exactly that many
 * bytes and never more. Only a body without one is counted as it streams in, because touching the
 * stream makes the HTTP adapter build a whole Fetch `Request`, which costs a fifth of a `POST`.
 */
export function limitBodySize(maxBytes: number): MiddlewareHandler<AppEnv> {
  const message = payloadTooLargeMessage(maxBytes);
  const refuse = (): never => {
    throw new ApiError(413, 'payload_too_large', message);
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
