import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';
import type { Caller } from './identify-caller.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

const REFUSALS: Record<Caller['credentials'], string> = {
  none: 'An API key is required: send it as `Authorization: Bearer <API_KEY>`.',
  malformed: 'The `Authorization` header must have the form `Bearer <API_KEY>`.',
  bearer: 'The API key is not valid: it is unknown or has been revoked.',
};

/** Refuses, with 401, a caller that did not send an active key, saying what to fix. */
export function requireApiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { apiKey, credentials } = c.get('caller');
    if (apiKey) return next();
    throw new ApiError(401, 'unauthorized', REFUSALS[credentials], CHALLENGE);
  };
}
