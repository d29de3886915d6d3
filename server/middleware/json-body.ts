import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors.ts';
import type { AppContext, AppEnv } from '../http-types.ts';

export const MAX_BODY_BYTES = 16 * 1024;

export const PAYLOAD_TOO_LARGE_MESSAGE = `The request body is larger than ${MAX_BODY_BYTES} bytes (16 KiB).`;

/**
 * Refuses, with 415, a body that is not declared as UTF-8 JSON: another media type, none, or a
 * `charset` other than UTF-8 (JSON exchanged between systems is UTF-8, so a Latin-1 body would
 * be stored as the wrong characters).
 */
export function assertJsonContentType(contentType: string | undefined): void {
  const [mediaType, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  if (mediaType?.toLowerCase() !== 'application/json') {
    const got = contentType ? `got \`${contentType.slice(0, 100)}\`` : 'got none';
    throw new ApiError(415, 'unsupported_media_type', `The request body must be sent with \`Content-Type: application/json\`; ${got}.`);
  }
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim());
    if (name?.toLowerCase() !== 'charset') continue;
    const charset = value.replace(/^"(.*)"$/, '$1');
    if (charset.toLowerCase() !== 'utf-8') {
      throw new ApiError(415, 'unsupported_media_type', `The request body must be encoded as UTF-8; \`charset=${charset.slice(0, 40)}\` is not supported.`);
    }
  }
}

/** Checked before the body is read, so a body of another type is refused without reading it. */
export function requireJsonContentType(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertJsonContentType(c.req.header('Content-Type'));
    return next();
  };
}

/** Counts the bytes actually received, whether or not `Content-Length` is sent or honest. */
export function limitBodySize(): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', PAYLOAD_TOO_LARGE_MESSAGE);
    },
  });
}

// Fatal: a byte sequence that is not UTF-8 is refused instead of becoming U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON value of a request body received as bytes; 400 `malformed_json` naming what is wrong. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'malformed_json', 'The request body is not valid UTF-8; send the JSON encoded as UTF-8.');
  }
  if (text.trim() === '') throw new ApiError(400, 'malformed_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'malformed_json', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}

export async function readJsonBody(c: AppContext): Promise<unknown> {
  return parseJsonBody(new Uint8Array(await c.req.arrayBuffer()));
}
