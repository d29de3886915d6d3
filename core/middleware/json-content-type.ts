import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/**
 * Refuses, with 415, a body that is not declared as UTF-8 JSON: another media type, none, or a
 * `charset` other than UTF-8 (JSON exchanged between systems is UTF-8, so a Latin-1 body would
 * be stored as the wrong characters).
 */
function assertJsonContentType(contentType: string | undefined): void {
  const [mediaType, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  if (mediaType?.toLowerCase() !== 'application/json') {
    const got = contentType ? `got \`${contentType.slice(0, 100)}\`` : 'got none';
    throw new ApiError(
      415,
      'unsupported_media_type',
      `The request body must be sent with \`Content-Type: application/json\`; ${got}.`,
    );
  }
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim());
    if (name?.toLowerCase() !== 'charset') continue;
    const charset = value.replace(/^"(.*)"$/, '$1');
    if (charset.toLowerCase() !== 'utf-8') {
      const message = `The request body must be encoded as UTF-8; \`charset=${charset.slice(0, 40)}\` is not supported.`;
      throw new ApiError(415, 'unsupported_media_type', message);
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
