import type { Context, Hono, MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { TrieRouter } from 'hono/router/trie-router';
import { errors } from '../errors.ts';
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

/** Lists the methods sorted, as the contract's paths (`allow`) and CORS (`servedMethods`) do: one order everywhere. */
function notAllowed(c: Context<AppEnv>, served: string[]): Response {
  const methods = [...served].sort();
  const { body, status, headers } = errors.methodNotAllowed(c.req.path, c.req.method, methods);
  return c.json(body, status, headers);
}

/**
 * The methods `app` serves at a path, sorted (`GET` bringing `HEAD`, as Hono answers it), none
 * for a path it does not serve: what its `Allow` says. Read from the app's routes when first
 * asked, once they are all registered.
 */
export function servedMethods(app: Hono<AppEnv>): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  return (path) => {
    router ??= methodRouter(app);
    const [matches] = router.match('ALL', path);
    return [...new Set(matches.flatMap(([methods]) => methods))].sort();
  };
}

function methodRouter(app: Hono<AppEnv>): TrieRouter<string[]> {
  const methodsByPath = new Map<string, Set<string>>();
  for (const route of app.routes) {
    // Middleware (`use`) is registered for ALL; a HEAD route only repeats a GET.
    if (route.method === 'ALL' || route.method === 'HEAD') continue;
    const methods = methodsByPath.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    if (route.method === 'GET') methods.add('HEAD');
    methodsByPath.set(route.path, methods);
  }
  const router = new TrieRouter<string[]>();
  for (const [path, methods] of methodsByPath) router.add('ALL', path, [...methods]);
  return router;
}
