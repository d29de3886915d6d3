import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http-types.ts';
import type { ApiKeyRecord, KeyLookup } from '../keys/key-store.ts';

/** Who sent a request, as far as its `Authorization` header tells. */
export interface Caller {
  /** The active key the caller sent; undefined when it sent none, a malformed one, or one unknown or revoked. */
  apiKey: ApiKeyRecord | undefined;
  /** What the header held, so that a refusal can say what to fix. */
  credentials: 'none' | 'malformed' | 'bearer';
  /** Why the key could not be looked up; the rate limit answers it without counting the request. */
  lookupFailure?: unknown;
}

// RFC 6750 b64token; the scheme name is case-insensitive (RFC 9110). Keys are 47 characters; the
// cap keeps an oversized header from costing a hash before it is refused.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,256}=*) *$/i;

/**
 * Sets the request's `caller`. It never throws: a key that cannot be checked is left for the rate
 * limit to refuse, so the refusal carries the rate-limit headers the contract requires.
 */
export function identifyCaller(keys: KeyLookup): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('caller', await callerOf(c.req.header('Authorization'), keys));
    return next();
  };
}

async function callerOf(authorization: string | undefined, keys: KeyLookup): Promise<Caller> {
  if (authorization === undefined) return { apiKey: undefined, credentials: 'none' };
  const secret = BEARER.exec(authorization)?.[1];
  if (secret === undefined) return { apiKey: undefined, credentials: 'malformed' };
  try {
    return { apiKey: await keys.findActive(secret), credentials: 'bearer' };
  } catch (error) {
    return { apiKey: undefined, credentials: 'bearer', lookupFailure: error };
  }
}
