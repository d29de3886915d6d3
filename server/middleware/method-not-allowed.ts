import type { Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { errorBody } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/** A path of `app` asked with a method it does not serve: 405, with the methods it does serve in `Allow`. */
export function answerMethodNotAllowed(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  return methodNotAllowed({
    app,
    onMethodNotAllowed: (c, methods) =>
      c.json(
        errorBody(
          405,
          'method_not_allowed',
          `${c.req.path} does not support ${c.req.method}; it supports ${methods.join(', ')}.`,
        ),
        405,
        { Allow: methods.join(', ') },
      ),
  });
}
