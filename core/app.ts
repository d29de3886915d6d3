import { Hono, type MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import {
  type Contract,
  type ContractOperation,
  loadContract,
  type RequestValidator,
  rateLimitRules,
  requestValidator,
} from '../contract/index.ts';
import { docsRoutes } from '../server/docs.ts';
import { createHandlers } from '../server/handlers/index.ts';
import type { PetStore } from '../server/store/pet-store.ts';
import { answerErrors } from './answer-errors.ts';
import type { Clock } from './clock.ts';
import { validationFailed } from './errors.ts';
import type { AppContext, AppEnv, Handler, HandlerInput } from './http-types.ts';
import { indexRoute } from './index-route.ts';
import { readJsonBody } from './json-body.ts';
import type { KeyStore } from './keys/key-store.ts';
import type { RateLimiter } from './limiter/rate-limiter.ts';
import type { Logger } from './logger.ts';
import { accessLog } from './middleware/access-log.ts';
import { limitBodySize } from './middleware/body-size-limit.ts';
import { type CorsExtras, type CorsOrigins, corsFor } from './middleware/cors.ts';
import { deprecationHeaders } from './middleware/deprecation-headers.ts';
import { goneAfterSunset } from './middleware/gone-after-sunset.ts';
import { identifyCaller } from './middleware/identify-caller.ts';
import { requireJsonContentType } from './middleware/json-content-type.ts';
import { allowOnly, answerMethodNotAllowed } from './middleware/method-not-allowed.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requireApiKey } from './middleware/require-api-key.ts';
import { answerNotFound } from './not-found.ts';
import { createCursorCodec } from './pagination/cursor.ts';
import type { ReadinessProbes } from './readiness.ts';

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
  /** Origins allowed to call the API from a browser (a list, or a test of each origin); none by default. */
  corsOrigins?: CorsOrigins;
  /** What browsers may do beyond the service's CORS: the mocks' cookie and `Prefer`; unset for the service. */
  corsExtras?: CorsExtras;
  contract?: Contract;
  /**
   * Run for every operation once its request is valid, before its handler; one may answer in the
   * handler's place (the mocks answer the response a scenario or `Prefer` chooses here).
   */
  beforeHandler?: (operation: ContractOperation) => MiddlewareHandler<AppEnv>;
  /**
   * What `GET /readyz` asks. By default the storage is asked for one pet, the limiter (in
   * process memory) always answers, and the instance is never stopping.
   */
  readiness?: ReadinessProbes;
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const contract = deps.contract ?? loadContract();
  const validator = requestValidator(contract);
  const probes = deps.readiness ?? {
    storage: async () => void (await deps.pets.list({ limit: 1 })),
    limiter: async () => {},
    stopping: () => false,
  };
  const handlers = createHandlers(deps.pets, createCursorCodec(deps.cursorSecret), contract.basePath, probes);
  const route = (operation: ContractOperation) => {
    const handler = handlers[operation.operationId] as Handler<typeof operation.operationId>;
    app.on(
      operation.method,
      [operation.routePath],
      ...operationMiddleware(operation, deps.clock),
      validate(operation, validator),
      ...(deps.beforeHandler ? [deps.beforeHandler(operation)] : []),
      (c) => handler(c, c.get('input') as HandlerInput<typeof operation.operationId>),
    );
  };
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(accessLog(deps.logger));
  if (typeof deps.corsOrigins === 'function' || deps.corsOrigins?.length)
    app.use(corsFor(deps.corsOrigins, [...new Set(contract.paths.flatMap((path) => path.allow))], deps.corsExtras));
  for (const operation of contract.operations) {
    if (operation.deprecation) app.use(operation.routePath, deprecationHeaders(operation));
  }
  // Before rate limiting and authentication: the docs, the contract, the index and the probes
  // need no key and count against no window.
  app.route('/', docsRoutes());
  app.route('/', indexRoute(contract));
  for (const path of contract.paths) {
    const publicOperations = path.operations.filter((operation) => operation.isPublic);
    // A probe's path asked with another method is a 405 before any key is asked for.
    if (publicOperations.length === path.operations.length)
      for (const operation of publicOperations) app.use(operation.routePath, allowOnly(path.allow));
    for (const operation of publicOperations) route(operation);
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

function operationMiddleware(operation: ContractOperation, clock: Clock): MiddlewareHandler<AppEnv>[] {
  const middleware: MiddlewareHandler<AppEnv>[] = [];
  if (operation.deprecation) middleware.push(goneAfterSunset(operation, clock));
  if (operation.bodySchema) {
    if (operation.maxBodyBytes === undefined) {
      throw new Error(`Operation ${operation.operationId} takes a body but the contract sets no x-max-body-bytes.`);
    }
    middleware.push(requireJsonContentType(), limitBodySize(operation.maxBodyBytes));
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
    const validation = validator.validate(operation.operationId, { query: c.req.queries(), path: c.req.param(), body });
    if (!validation.valid) throw validationFailed(validation.problems);
    c.set('input', validation.input);
    return next();
  };
}
