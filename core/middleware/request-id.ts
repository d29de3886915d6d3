import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http-types.ts';
import { setHeader } from './answer-headers.ts';

/** The header a request's id is read from and answered in: the service's own, not the contract's. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A caller's id that is kept, as hono/request-id keeps one: 1 to 255 letters, digits, `_`, `-` or `=`. */
const KEPT_ID = /^[\w\-=]{1,255}$/;

/**
 * Sets `requestId` to the caller's `X-Request-Id` when it is one to keep, otherwise to a new UUID,
 * and answers with it. hono/request-id does the same, but sets its header with `c.header`, which
 * an answer made from `setHeader`'s headers would not carry.
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const sent = c.req.header(REQUEST_ID_HEADER);
    const id = sent !== undefined && KEPT_ID.test(sent) ? sent : crypto.randomUUID();
    c.set('requestId', id);
    setHeader(c, REQUEST_ID_HEADER, id);
    return next();
  };
}
