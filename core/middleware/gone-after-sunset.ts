import type { MiddlewareHandler } from 'hono';
import type { ContractOperation } from '../../contract/contract.ts';
import { deprecationOf } from '../../contract/deprecation.ts';
import type { Clock } from '../clock.ts';
import { errors } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/** From its sunset on, a deprecated operation answers 410 naming its successor. */
export function goneAfterSunset(operation: ContractOperation, clock: Clock): MiddlewareHandler<AppEnv> {
  const { sunsetAt, sunsetDate, successor } = deprecationOf(operation);
  const removed = `${operation.method} ${operation.servedPath} was removed on ${sunsetDate}`;
  return async (_c, next) => {
    if (clock.now() >= sunsetAt) throw errors.gone(removed, successor);
    return next();
  };
}
