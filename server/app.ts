import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { clientAborted, clientClosedRequest } from './client-abort.ts';
import type { Clock } from './clock.ts';
import { loadContract, type Contract, type OperationSpec } from './contract.ts';
import { docsRoutes } from './docs.ts';
import { ApiError, errorBody } from './errors.ts';
import { createHandlers } from './handlers/index.ts';
import { indexRoute } from './index-route.ts';
import type { AppContext, AppEnv, Handler, HandlerInput } from './http-types.ts';
import type { KeyStore } from './keys/key-store.ts';
import type { RateLimiter } from './limiter/rate-limiter.ts';
import type { Logger } from './logger.ts';
import { accessLog } from './middleware/access-log.ts';
import { authenticate } from './middleware/authenticate.ts';
import { limitBodySize, readJsonBody, requireJsonContentType } from './middleware/json-body.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { createCursorCodec } from './pagination/cursor.ts';
import type { PetStore } from './store/pet-store.ts';
import { StorageUnavailableError } from './store/storage-error.ts';
import { compileValidators, type OperationValidator } from './validation.ts';

export interface AppDeps {
  pets: PetStore;
  keys: KeyStore;
  /**
   * Separate limiters for keys and for addresses, so that a flood of addresses (cheap with
   * IPv6) cannot push a quiet key's windows out of a bounded limiter.
   */
  limiters: { keys: RateLimiter; addresses: RateLimiter };
  clock: Clock;
  logger: Logger;
  /** Signs pagination cursors; kept in the database so cursors outlive a restart. */
  cursorSecret: Buffer;
  /** The caller's address, for limiting requests that carry no valid key. */
  clientAddress: (c: AppContext) => string;
  /** Origins allowed to call the API from a browser; none by default. */
  corsOrigins?: string[];
  contract?: Contract;
}

/** Long enough for an operator to free disk space or for a lock to clear, short enough for a client to wait. */
const STORAGE_RETRY_AFTER_SECONDS = 5;

/** Headers a browser client may read: it needs them to paginate, back off and notice deprecation. */
const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Link',
  'Location',
  'Deprecation',
  'Sunset',
  'X-Request-Id',
];

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const contract = deps.contract ?? loadContract();
  const validators = compileValidators(contract);
  const handlers = createHandlers(deps.pets, createCursorCodec(deps.cursorSecret), contract.basePath);
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(accessLog(deps.logger));
  if (deps.corsOrigins?.length) {
    const allowMethods = [...new Set(contract.operations.flatMap((operation) => [operation.method, ...(operation.method === 'GET' ? ['HEAD'] : [])]))];
    app.use(cors({ origin: deps.corsOrigins, allowMethods, exposeHeaders: EXPOSED_HEADERS, allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'] }));
  }
  for (const operation of contract.operations) {
    if (operation.deprecation) app.use(operation.routePath, deprecationHeaders(operation));
  }
  // Before rate limiting and authentication: the docs, the contract and the index need no key and count against no window.
  app.route('/', docsRoutes());
  app.route('/', indexRoute(contract));
  app.use(rateLimit(deps));
  app.use(authenticate());
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(
          errorBody(405, 'method_not_allowed', `${c.req.path} does not support ${c.req.method}; it supports ${methods.join(', ')}.`),
          405,
          { Allow: methods.join(', ') },
        ),
    }),
  );

  for (const operation of contract.operations) {
    const validator = validators.get(operation.operationId)!;
    const handler = handlers[operation.operationId] as Handler<typeof operation.operationId>;
    const handle: MiddlewareHandler<AppEnv> = async (c) => handler(c, await validatedInput(c, validator));
    app.on(operation.method, [operation.routePath], ...operationMiddleware(operation, validator, deps.clock), handle);
  }

  app.notFound((c) => c.json(errorBody(404, 'not_found', `There is no resource at ${c.req.path}.`), 404));
  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.body, error.status, error.headers);
    if (clientAborted(error, c.req.raw)) return clientClosedRequest();
    if (error instanceof StorageUnavailableError) {
      deps.logger.error({ requestId: c.get('requestId'), event: 'storage_unavailable', reason: error.reason });
      const retryAfter = String(STORAGE_RETRY_AFTER_SECONDS);
      // The reason stays in the log: the client learns only that nothing was done and when to retry.
      const message = `The service cannot reach its storage right now, so nothing was changed; retry after ${retryAfter} seconds.`;
      return c.json(errorBody(503, 'service_unavailable', message), 503, { 'Retry-After': retryAfter });
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody(400, 'validation_failed', 'The request could not be read.'), 400);
    }
    deps.logger.error({ requestId: c.get('requestId'), error: error instanceof Error ? error.stack : String(error) });
    return c.json(
      errorBody(500, 'internal_error', `An unexpected error occurred; quote request id ${c.get('requestId')} when reporting it.`),
      500,
    );
  });
  return app;
}

function operationMiddleware(operation: OperationSpec, validator: OperationValidator, clock: Clock): MiddlewareHandler<AppEnv>[] {
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  if (operation.deprecation) middleware.push(answerGoneAfterSunset(operation, clock));
  if (validator.takesBody) middleware.push(requireJsonContentType(), limitBodySize());
  return middleware;
}

async function validatedInput<K extends OperationSpec['operationId']>(c: AppContext, validator: OperationValidator): Promise<HandlerInput<K>> {
  return {
    query: validator.parameters('query', c.req.queries()),
    path: validator.parameters('path', c.req.param()),
    body: validator.takesBody ? validator.body(await readJsonBody(c)) : undefined,
  } as HandlerInput<K>;
}

/** Every response of a deprecated operation, of any status, tells the client so. */
function deprecationHeaders(operation: OperationSpec): MiddlewareHandler<AppEnv> {
  const methods = new Set([operation.method, ...(operation.method === 'GET' ? ['HEAD'] : [])]);
  return async (c, next) => {
    if (methods.has(c.req.method)) {
      for (const [name, value] of Object.entries(operation.deprecation!.headers)) c.header(name, value);
    }
    return next();
  };
}

function answerGoneAfterSunset(operation: OperationSpec, clock: Clock): MiddlewareHandler<AppEnv> {
  const { sunsetAt, sunsetDate, headers } = operation.deprecation!;
  const successor = /<([^>]+)>;\s*rel="successor-version"/.exec(headers.Link ?? '')?.[1];
  const message = `${operation.method} ${operation.routePath.replace(/:(\w+)/g, '{$1}')} was removed on ${sunsetDate}${successor ? `; use ${successor} instead` : ''}.`;
  return async (_c, next) => {
    if (clock.now() >= sunsetAt) throw new ApiError(410, 'gone', message);
    return next();
  };
}
