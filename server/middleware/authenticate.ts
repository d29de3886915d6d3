import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };
// RFC 6750 b64token; the scheme name is case-insensitive (RFC 9110). Keys are 47 characters; the
// cap keeps an oversized header from costing a hash before it is refused.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,256}=*) *$/i;

export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/** Runs after the rate limit, which has already looked the key up. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('apiKey')) return next();
    const authorization = c.req.header('Authorization');
    if (authorization === undefined) {
      throw new ApiError(401, 'unauthorized', 'An API key is required: send it as `Authorization: Bearer <API_KEY>`.', CHALLENGE);
    }
    if (bearerToken(authorization) === undefined) {
      throw new ApiError(401, 'unauthorized', 'The `Authorization` header must have the form `Bearer <API_KEY>`.', CHALLENGE);
    }
    throw new ApiError(401, 'unauthorized', 'The API key is not valid: it is unknown or has been revoked.', CHALLENGE);
  };
}
