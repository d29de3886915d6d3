import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { loadContract } from '../../contract/index.ts';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/**
 * The largest body any operation of the contract reads (`x-max-body-bytes`): what the HTTP layer
 * and the mock hold at most before they refuse a body.
 */
export const MAX_BODY_BYTES = Math.max(...loadContract().operations.map((operation) => operation.maxBodyBytes ?? 0));

export function payloadTooLargeMessage(maxBytes: number): string {
  const readable = maxBytes % 1024 === 0 ? ` (${maxBytes / 1024} KiB)` : '';
  return `The request body is larger than ${maxBytes} bytes${readable}.`;
}

export const PAYLOAD_TOO_LARGE_MESSAGE = payloadTooLargeMessage(MAX_BODY_BYTES);

/** Counts the bytes actually received, whether or not `Content-Length` is sent or honest. */
export function limitBodySize(maxBytes: number): MiddlewareHandler<AppEnv> {
  const message = payloadTooLargeMessage(maxBytes);
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', message);
    },
  });
}
