// What the app tells an observer about each request (metrics, traces), without knowing what it
// does with it: the core stays free of Node's modules and of any telemetry library.
import type { MiddlewareHandler } from 'hono';
import type { Contract, ContractOperation } from '../contract/contract.ts';
import type { Dependency } from './errors.ts';
import type { AppContext, AppEnv } from './http-types.ts';

/** The route of a request that matches no path the app serves: one label, whatever clients send. */
const UNMATCHED_ROUTE = 'unmatched';
/** The operation of a request that reaches none (a probe of the docs, a 404, a 405). */
const NO_OPERATION = 'none';

/** A request as it was answered. */
export interface AnsweredRequest {
  method: string;
  /**
   * The contract's path template without the base path (`/pets/{petId}`), a public route's own
   * path (`/docs/*`), or `unmatched`: bounded, whatever paths clients send.
   */
  route: string;
  /** The operation's operationId, or `none`. */
  operationId: string;
  status: number;
  durationSeconds: number;
  /** The Error body's `code`, when the answer is an error the app gave (`rate_limited`). */
  errorCode?: string;
  /** The dependency that could not do the work, when the answer is a 503 for it. */
  unavailable?: Dependency;
  /** Whether the answer replays one kept under an `Idempotency-Key`. */
  replayed: boolean;
}

/** What an observer does with one request: it may run the request inside a context of its own (a trace's span). */
export interface ObservedRequest {
  /** Runs the rest of the request; a tracer runs it with the request's span as the current one. */
  run?(rest: () => Promise<void>): Promise<void>;
  /** Called once, when the request has its answer. */
  answered(answer: AnsweredRequest): void;
}

/** Called as each request arrives, after its request id and trace context are set and before anything else. */
export type RequestObserver = (c: AppContext) => ObservedRequest;

/**
 * The route label and operation of a request: the operation its route set once matched, else
 * the contract's path it names (a request refused before routing, or with a method the path
 * lacks), else a public route's pattern.
 */
function routeLabels(contract: Contract, publicPatterns: readonly string[]) {
  const publicRoutes = publicPatterns.map((pattern) => ({ pattern, test: patternTest(pattern) }));
  return (c: AppContext): { route: string; operationId: string } => {
    const operation = c.get('operation');
    if (operation) return labelsOf(operation);
    const match = contract.match(c.req.path);
    const first = match?.path.operations[0];
    if (match && first) {
      const reached = match.path.operationFor(c.req.method);
      return reached ? labelsOf(reached) : { route: first.path, operationId: NO_OPERATION };
    }
    const publicRoute = publicRoutes.find(({ test }) => test(c.req.path));
    return { route: publicRoute?.pattern ?? UNMATCHED_ROUTE, operationId: NO_OPERATION };
  };
}

const labelsOf = (operation: ContractOperation) => ({ route: operation.path, operationId: operation.operationId });

/** A test of a router pattern without parameters: `/openapi.json` exactly, `/docs/*` by prefix. */
function patternTest(pattern: string): (path: string) => boolean {
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -1);
    return (path) => path.startsWith(prefix);
  }
  return (path) => path === pattern;
}

/**
 * Tells `observer` of every request and its answer, refusals included; the outermost step after
 * the request id, so that every answer, whoever gave it, is seen once.
 */
export function observeRequests(
  observer: RequestObserver,
  contract: Contract,
  publicPatterns: readonly string[],
): MiddlewareHandler<AppEnv> {
  const labels = routeLabels(contract, publicPatterns);
  return async (c, next) => {
    const started = performance.now();
    const observed = observer(c);
    try {
      await (observed.run ? observed.run(next) : next());
    } finally {
      const answered = c.get('answered');
      observed.answered({
        method: c.req.method,
        ...labels(c),
        status: c.res.status,
        durationSeconds: (performance.now() - started) / 1000,
        errorCode: answered?.errorCode,
        unavailable: answered?.unavailable,
        replayed: answered?.replayed === true,
      });
    }
  };
}
