import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppContext } from '../core/http-types.ts';

/**
 * The socket's peer address. Behind a proxy the operator enables TRUST_PROXY, and the address
 * is the last `X-Forwarded-For` entry: the one that proxy appended, which a client cannot forge.
 */
export function clientAddressResolver(trustProxy: boolean): (c: AppContext) => string {
  return (c) => {
    if (trustProxy) {
      const forwarded = c.req.header('X-Forwarded-For')?.split(',').at(-1)?.trim();
      if (forwarded) return forwarded;
    }
    return getConnInfo(c).remote.address ?? 'unknown';
  };
}
