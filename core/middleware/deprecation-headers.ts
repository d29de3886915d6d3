import type { MiddlewareHandler } from 'hono';
import type { ContractOperation } from '../../contract/contract.ts';
import { deprecationOf } from '../../contract/deprecation.ts';
import type { AppEnv } from '../http-types.ts';
import { setHeader } from './answer-headers.ts';

/** Every response of a deprecated operation, of any status, tells the client so. */
export function deprecationHeaders(operation: ContractOperation): MiddlewareHandler<AppEnv> {
  // Mounted on the operation's path, which other operations may share: only its own methods get the headers.
  const methods = new Set(operation.methods);
  const { headers } = deprecationOf(operation);
  return async (c, next) => {
    if (methods.has(c.req.method)) {
      for (const [name, value] of Object.entries(headers)) setHeader(c, name, value);
    }
    return next();
  };
}
