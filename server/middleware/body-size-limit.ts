import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

export const MAX_BODY_BYTES = 16 * 1024;

export const PAYLOAD_TOO_LARGE_MESSAGE = `The request body is larger than ${MAX_BODY_BYTES} bytes (16 KiB).`;

/** Counts the bytes actually received, whether or not `Content-Length` is sent or honest. */
export function limitBodySize(): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', PAYLOAD_TOO_LARGE_MESSAGE);
    },
  });
}
