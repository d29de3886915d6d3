import type { Context, Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { errorBody } from '../errors.ts';
import type { AppEnv } from '../http-types.ts';

/** A path of `app` asked with a method it does not serve: 405, with the methods it does serve in `Allow`. */
export function answerMethodNotAllowed(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  return methodNotAllowed({ app, onMethodNotAllowed: notAllowed });
}

/**
 * The same 405 for a path that serves exactly `methods`, answered at once: for the paths served
 * before authentication, where the answer cannot wait for the rest of the chain.
 */
export function allowOnly(methods: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => (methods.includes(c.req.method) ? next() : notAllowed(c, [...methods]));
}

function notAllowed(c: Context<AppEnv>, methods: string[]): Response {
  return c.json(
    errorBody(
      405,
      'method_not_allowed',
      `${c.req.path} does not support ${c.req.method}; it supports ${methods.join(', ')}.`,
    ),
    405,
    { Allow: methods.join(', ') },
  );
}
