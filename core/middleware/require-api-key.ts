import type { MiddlewareHandler } from 'hono';
import { errors } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/** Refuses, with 401, a caller that did not send an active key, saying what to fix. */
export function requireApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { apiKey, credentials } = c.get('caller');
    if (apiKey) return next();
    throw errors.unauthorized(credentials);
  };
}
