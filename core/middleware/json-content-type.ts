import type { MiddlewareHandler } from 'hono';
import { mediaTypeOf } from '../../contract/media-types.ts';
import { errors } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/**
 * Refuses, with 415, a body that is not declared as UTF-8 JSON of one of the `accepted` media
 * types: another media type, none, or a `charset` other than UTF-8 (JSON exchanged between systems
 * is UTF-8, so a Latin-1 body would be stored as the wrong characters).
 */
function assertJsonContentType(contentType: string | undefined, accepted: readonly string[]): void {
  const [, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  if (!accepted.includes(mediaTypeOf(contentType))) {
    throw errors.unsupportedMediaType(accepted, contentType);
  }
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=').map((part) => part.trim());
    if (name?.toLowerCase() !== 'charset') continue;
    const charset = value.replace(/^"(.*)"$/, '$1');
    if (charset.toLowerCase() !== 'utf-8') {
      throw errors.unsupportedCharset(charset);
    }
  }
}

/**
 * Refuses, with 415, a body sent with a content coding (`Content-Encoding: gzip`), which would
 * otherwise be read as JSON as it is; `Accept-Encoding: identity` says what is taken instead
 * (RFC 9110, 15.5.16).
 */
function assertNoContentCoding(contentEncoding: string | undefined): void {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding.toLowerCase() !== 'identity');
  if (codings.length === 0) return;
  throw errors.unsupportedContentCoding(codings);
}

/**
 * Checked before the body is read, so a body of another type is refused without reading it;
 * `accepted` are the JSON media types the operation declares, `application/json` by default.
 */
export function requireJsonContentType(accepted: readonly string[] = ['application/json']): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertJsonContentType(c.req.header('Content-Type'), accepted);
    assertNoContentCoding(c.req.header('Content-Encoding'));
    return next();
  };
}
