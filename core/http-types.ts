import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import type { ContractOperation, OperationId } from '../contract/contract.ts';
import type { operations } from '../generated/openapi.ts';
import type { Dependency } from './errors.ts';
import type { IdempotencyClaim } from './idempotency/store.ts';
import type { AnswerHeadersVariables } from './middleware/answer-headers.ts';
import type { Caller } from './middleware/identify-caller.ts';
import type { RemoteParent } from './trace-context.ts';

interface AppVariables extends AnswerHeadersVariables {
  requestId: string;
  /** Set by identifyCaller; the rate limit counts by it and requireApiKey refuses a caller without a key. */
  caller: Caller;
  /** Set once the request is valid: its parameters and body, with the contract's defaults filled in. */
  input: unknown;
  /** Set as the operation's handler starts: from then on a failed write may have been stored. */
  operationStarted: boolean;
  /** Set for a create that carries an `Idempotency-Key` no answer is kept under yet. */
  idempotency?: IdempotencyClaim;
  /** The trace the request belongs to (32 hex digits): the caller's, from `traceparent`, or a new one. */
  traceId: string;
  /** The caller's span, when the request carried a valid `traceparent`. */
  traceParent: RemoteParent | undefined;
  /** Set as the request reaches its operation's route. */
  operation?: ContractOperation;
  /** What the answer was, beyond its status, for the request's observer. */
  answered?: { errorCode?: string; unavailable?: Dependency; replayed?: boolean };
}

export type AppEnv = { Variables: AppVariables };
export type AppContext = Context<AppEnv>;

type Operation<K extends OperationId> = operations[K];
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** What a handler receives: parameters and body after validation against the contract. */
interface HandlerInput<K extends OperationId> {
  query: NonNullable<Operation<K>['parameters']['query']>;
  path: NonNullable<Operation<K>['parameters']['path']>;
  body: JsonContent<Operation<K>['requestBody']>;
}

/**
 * The responses a handler may return: for each status the contract declares for the operation,
 * `c.json(body, status)` with that status and that body. Any other status or body fails to
 * typecheck.
 */
type HandlerResponse<K extends OperationId> = {
  [Status in keyof Operation<K>['responses'] & ContentfulStatusCode]: Response &
    TypedResponse<JSONParsed<JsonContent<Operation<K>['responses'][Status]>>, Status, 'json'>;
}[keyof Operation<K>['responses'] & ContentfulStatusCode];

export type Handler<K extends OperationId> = (c: AppContext, input: HandlerInput<K>) => Promise<HandlerResponse<K>>;

/**
 * Marks an operation of the handler table that this server does not implement yet: it is answered
 * `501 not_implemented` naming the operation, and listed in one warning line at start-up.
 */
export const notImplemented: unique symbol = Symbol('not implemented');
export type NotImplemented = typeof notImplemented;

/**
 * One entry per operation of the contract, a handler or `notImplemented`: an operation the table
 * does not name fails the typecheck, naming it.
 */
export type Handlers = { [K in OperationId]: Handler<K> | NotImplemented };
