import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors.ts';
import type { AppContext, AppEnv } from '../http-types.ts';

export const MAX_BODY_BYTES = 16 * 1024;

/** Checked before the body is read, so a body of another type is refused without reading it. */
export function requireJsonContentType(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const contentType = c.req.header('Content-Type');
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      const got = contentType ? `got \`${contentType.slice(0, 100)}\`` : 'got none';
      throw new ApiError(415, 'unsupported_media_type', `The request body must be sent with \`Content-Type: application/json\`; ${got}.`);
    }
    return next();
  };
}

/** Counts the bytes actually received, whether or not `Content-Length` is sent or honest. */
export function limitBodySize(): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (16 KiB).`);
    },
  });
}

export async function readJsonBody(c: AppContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new ApiError(400, 'malformed_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'malformed_json', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}
