import { Hono, type MiddlewareHandler } from 'hono';
import { loadContract } from '../contract/bundled.ts';
import type { Contract, ContractOperation } from '../contract/contract.ts';
import { idempotencyRule } from '../contract/idempotency.ts';
import { mediaTypeOf } from '../contract/media-types.ts';
import { rateLimitRules } from '../contract/rate-limit-rules.ts';
import { type RequestValidator, requestValidator } from '../contract/request-validator.ts';
import { answerErrors } from './answer-errors.ts';
import type { Clock } from './clock.ts';
import type { RouteHandler } from './collections/handlers.ts';
import { errors, PreconditionError } from './errors.ts';
import { type AppContext, type AppEnv, type NotImplemented, notImplemented } from './http-types.ts';
import { idempotencyKeys, type Sha256 } from './idempotency/keys.ts';
import type { IdempotencyStore } from './idempotency/store.ts';
import { readJsonBody } from './json-body.ts';
import type { KeyLookup } from './keys/key-store.ts';
import type { RateLimiter } from './limiter/rate-limiter.ts';
import type { Logger } from './logger.ts';
import { accessLog } from './middleware/access-log.ts';
import { answerHeaders } from './middleware/answer-headers.ts';
import { limitBodySize } from './middleware/body-size-limit.ts';
import { type CorsExtras, type CorsOrigins, contractCors } from './middleware/cors.ts';
import { deprecationHeaders } from './middleware/deprecation-headers.ts';
import { goneAfterSunset } from './middleware/gone-after-sunset.ts';
import { headContentLength } from './middleware/head-content-length.ts';
import { identifyCaller } from './middleware/identify-caller.ts';
import { requireJsonContentType } from './middleware/json-content-type.ts';
import { allowOnly, answerMethodNotAllowed, servedMethods } from './middleware/method-not-allowed.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { requireApiKey } from './middleware/require-api-key.ts';
import { answerNotFound } from './not-found.ts';
import { observeRequests, type RequestObserver } from './observe.ts';
import { traceContext } from './trace-context.ts';

/**
 * The operations' handlers by operationId: the server's typed table (`Handlers`), or the mocks'
 * answers from the contract. Every operation of the contract needs an entry.
 */
export type OperationHandlers = Readonly<Record<string, RouteHandler | NotImplemented>>;

export interface AppDeps {
  handlers: OperationHandlers;
  keys: KeyLookup;
  /**
   * Separate limiters for keys and for addresses, so that a flood of addresses (cheap with
   * IPv6) cannot push a quiet key's windows out of a bounded limiter.
   */
  limiters: { keys: RateLimiter; addresses: RateLimiter };
  clock: Clock;
  logger: Logger;
  /** The caller's address, for limiting requests that carry no valid key. */
  clientAddress: (c: AppContext) => string;
  /** Origins allowed to call the API from a browser (a list, or a test of each origin); none by default. */
  corsOrigins?: CorsOrigins;
  /** What browsers may do beyond the contract's headers: the mocks' cookie, `Prefer` and delay header; unset for the service. */
  corsExtras?: CorsExtras;
  contract?: Contract;
  /**
   * Run for every operation once its request is valid, before its handler; one may answer in the
   * handler's place (the mocks answer the response a scenario or `Prefer` chooses here).
   */
  beforeHandler?: (operation: ContractOperation) => MiddlewareHandler<AppEnv>;
  /**
   * Where the answers to `Idempotency-Key`s are kept. Without it a key is checked but nothing is
   * replayed: the static mock, whose every create answers alike.
   */
  idempotency?: { store: IdempotencyStore; sha256: Sha256 };
  /** Served beside the API before rate limiting and authentication, like the index: the server's docs. */
  publicRoutes?: Hono<AppEnv>;
  /** Told of every request and its answer (the server's metrics and traces); nothing by default. */
  observe?: RequestObserver;
  /** Called as each request arrives, before anything else: the storage's reads of the request begin there. */
  onRequest?: () => void;
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const contract = deps.contract ?? loadContract();
  const validator = requestValidator(contract);
  const handlerOf = operationHandlers(contract, deps);
  const route = (operation: ContractOperation, routePaths = [operation.routePath]) => {
    const handler = handlerOf(operation);
    const rule = idempotencyRule(contract, operation);
    app.on(
      operation.method,
      routePaths,
      (c, next) => {
        c.set('operation', operation);
        return next();
      },
      ...operationMiddleware(operation, deps.clock),
      validate(operation, validator),
      ...(deps.beforeHandler ? [deps.beforeHandler(operation)] : []),
      ...(rule
        ? [
            idempotencyKeys(operation, rule, {
              store: deps.idempotency?.store,
              sha256: deps.idempotency?.sha256,
              clock: deps.clock,
            }),
          ]
        : []),
      (c) => {
        c.set('operationStarted', true);
        return handler(c, c.get('input') as never);
      },
    );
  };
  const app = new Hono<AppEnv>();

  const { onRequest } = deps;
  if (onRequest)
    app.use(async (_c, next) => {
      onRequest();
      return next();
    });
  app.use(answerHeaders(HARDENING_HEADERS));
  app.use(headContentLength());
  app.use(requestId());
  app.use(traceContext());
  if (deps.observe) {
    const publicPatterns = deps.publicRoutes?.routes.map((route) => route.path) ?? [];
    app.use(observeRequests(deps.observe, contract, [...new Set(publicPatterns)]));
  }
  app.use(accessLog(deps.logger, deps.clientAddress));
  if (typeof deps.corsOrigins === 'function' || deps.corsOrigins?.length) {
    app.use(contractCors(contract, deps.corsOrigins, servedMethods(app), deps.corsExtras));
  }
  for (const operation of contract.operations) {
    if (operation.deprecation) app.use(operation.routePath, deprecationHeaders(operation));
  }
  // Before rate limiting and authentication: the docs, the contract, the index and the probes
  // need no key and count against no window.
  if (deps.publicRoutes) app.route('/', deps.publicRoutes);
  for (const path of contract.paths) {
    const publicOperations = path.operations.filter((operation) => operation.isPublic);
    for (const operation of publicOperations) {
      const routePaths = [operation.routePath, ...underBasePath(contract, operation)];
      // A probe's path asked with another method is a 405 before any key is asked for.
      if (publicOperations.length === path.operations.length)
        for (const routePath of routePaths) app.use(routePath, allowOnly(path.allow));
      route(operation, routePaths);
    }
  }
  app.use(identifyCaller(deps.keys));
  app.use(rateLimit({ ...deps, rules: rateLimitRules(contract.document) }));
  app.use(requireApiKey());
  app.use(answerMethodNotAllowed(app));

  for (const operation of contract.operations) if (!operation.isPublic) route(operation);

  app.notFound(answerNotFound);
  app.onError(answerErrors(deps.logger));
  return app;
}

/**
 * On every answer: browsers must not guess another type than the one declared (a JSON body read
 * as HTML), and no cache may keep an answer that depends on the key and changes with every write.
 * The docs set their own caching.
 */
const HARDENING_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

/**
 * Where a public operation served beside the base path (the probes, `/healthz`) also answers:
 * under the base path (`/v1/healthz`). Tools that take one base URL (Portman and newman,
 * `redocly respect --server`, `generate-arazzo`) ignore a path's own `servers` and ask there.
 * The contract describes only the address beside the base path.
 */
function underBasePath(contract: Contract, operation: ContractOperation): string[] {
  const versioned = contract.basePath + operation.path.replace(/\{([^}]+)\}/g, ':$1');
  return versioned === operation.routePath ? [] : [versioned];
}

/**
 * Each operation's handler from the table; an operation marked `notImplemented` answers 501, and
 * one warning line names them all. An operation without an entry is a wiring mistake: it stops
 * the start, naming it.
 */
function operationHandlers(
  contract: Contract,
  { handlers, logger }: Pick<AppDeps, 'handlers' | 'logger'>,
): (operation: ContractOperation) => RouteHandler {
  const missing = contract.operations.filter((operation) => handlers[operation.operationId] === undefined);
  if (missing.length > 0)
    throw new PreconditionError(
      `No handler answers ${missing.map((operation) => operation.operationId).join(', ')}: give each an entry in the handler table.`,
    );
  const unimplemented = contract.operations.filter((operation) => handlers[operation.operationId] === notImplemented);
  if (unimplemented.length > 0)
    logger.warn({
      event: 'operations_not_implemented',
      message: `These operations of the contract are answered 501 not_implemented: ${unimplemented
        .map((operation) => `${operation.operationId} (${operation.method} ${operation.servedPath})`)
        .join(', ')}.`,
    });
  return (operation) => {
    const handler = handlers[operation.operationId];
    if (typeof handler === 'function') return handler;
    return async () => {
      throw errors.notImplemented(`${operation.method} ${operation.servedPath} (${operation.operationId})`);
    };
  };
}

function operationMiddleware(operation: ContractOperation, clock: Clock): MiddlewareHandler<AppEnv>[] {
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  if (operation.deprecation) middleware.push(goneAfterSunset(operation, clock));
  if (operation.bodySchema) {
    if (operation.maxBodyBytes === undefined) {
      throw new Error(`Operation ${operation.operationId} takes a body but the contract sets no x-max-body-bytes.`);
    }
    middleware.push(
      requireJsonContentType((operation.bodies ?? []).map(({ mediaType }) => mediaType)),
      limitBodySize(operation.maxBodyBytes),
    );
  }
  return middleware;
}

/**
 * Sets the request's `input` to its parameters and body once the contract's validator accepts
 * them. The body is read (413, malformed_json) before anything is validated, so one answer lists
 * every problem.
 */
function validate(operation: ContractOperation, validator: RequestValidator): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = operation.bodySchema ? await readJsonBody(c) : undefined;
    const validation = validator.validate(operation.operationId, {
      query: c.req.queries(),
      path: c.req.param(),
      body,
      mediaType: mediaTypeOf(c.req.header('Content-Type')),
    });
    if (!validation.valid) throw errors.invalidRequest(validation.problems);
    c.set('input', validation.input);
    return next();
  };
}
