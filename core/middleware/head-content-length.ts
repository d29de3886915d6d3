import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http-types.ts';

/**
 * A HEAD answer carries the `Content-Length` its GET would have (RFC 9110, 9.3.2), so a client can
 * learn a body's size without fetching it: Hono answers HEAD by running the GET and dropping its
 * body, and the HTTP adapter writes a length only for a body it sends.
 */
export function headContentLength(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'HEAD' || c.res.body === null || c.res.headers.has('Content-Length')) return;
    const { byteLength } = await c.res.clone().arrayBuffer();
    c.res.headers.set('Content-Length', String(byteLength));
  };
}
