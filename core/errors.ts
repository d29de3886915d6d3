import type { RequestProblem } from '../contract/problems.ts';
import type { RequestProblems } from '../contract/request-validator.ts';
import type { components } from '../generated/openapi.ts';
import { type ERROR_CODE_STATUSES, MAX_ERROR_DETAILS } from '../generated/rules.ts';

export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['code'];

/** Statuses the app sends with an Error body: those the contract's `x-error-codes` gives its codes. */
export type ErrorStatus = (typeof ERROR_CODE_STATUSES)[ErrorCode];

/**
 * Every status sent with an Error body: the app's, and those only the HTTP layer answers, for a
 * request the app never sees (408 too slow, 431 headers too large), which the contract has no code of.
 */
export type AnyErrorStatus = ErrorStatus | 408 | 417 | 431 | 505;

// The one catalogue of the errors the service's programs answer, as Fastify's errors.js: each kind
// once, with what it becomes (an Error body and its status, a 503, an exit code).

/** `Error` with V8's (Node's, Chromium's) setting of how many frames a new error's stack captures. */
const V8_ERROR = Error as ErrorConstructor & { stackTraceLimit?: number };

/** A failure that becomes the contract's Error body; thrown anywhere, answered in one place. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Every problem of an invalid request, in the body's `details`. */
    readonly details?: RequestProblem[],
  ) {
    // An answer, not a bug: its stack is never shown or logged, and capturing one was a tenth of
    // the cost of a refused request (a flood of 401s or 429s, the docs' refusals). V8 reads the
    // limit; other engines ignore it.
    const stackTraceLimit = V8_ERROR.stackTraceLimit;
    V8_ERROR.stackTraceLimit = 0;
    super(message);
    V8_ERROR.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
  }

  get body(): ErrorBody {
    return { ...errorBody(this.status, this.code, this.message), ...(this.details && { details: this.details }) };
  }
}

/** What the service depends on to do the work: its storage, its rate limiter. */
export type Dependency = 'storage' | 'limiter';

const DEPENDENCY_NAMES: Record<Dependency, string> = { storage: 'storage', limiter: 'rate limiter' };

/**
 * A dependency cannot do the work right now (a commit failed, the disk is full, PostgreSQL or
 * Redis is unreachable, too slow or refusing writes): answered 503 \`service_unavailable\` with
 * \`Retry-After\`, never 500, never a success, and counted against nothing. A write may have reached
 * the storage before the failure was seen (a timeout while PostgreSQL commits), so the answer
 * promises that nothing changed only for reads.
 */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';

  constructor(
    readonly dependency: Dependency,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The ${DEPENDENCY_NAMES[dependency]} is unavailable: ${reason}`, options);
  }
}

/**
 * What an operator gave a program cannot work: an argument, a variable, a file or a name it
 * refers to. Printed as its message, one line that says what to change, with exit code 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * What the operator asked cannot be done as things stand (a busy port, a damaged database, a
 * target database that is not empty). Printed as its message, one line that says what to do,
 * with exit code 1.
 */
export class PreconditionError extends Error {
  override readonly name = 'PreconditionError';
}

/**
 * A request the contract's validator found problems with: `message` names the first, `details`
 * lists them, as many as the contract's Error schema allows, so that a body of thousands of
 * unknown fields gets an answer about its own size, not many times larger.
 */
export function validationFailed(problems: RequestProblems): ApiError {
  return new ApiError(400, 'validation_failed', problems[0].message, {}, problems.slice(0, MAX_ERROR_DETAILS));
}

/** The contract's Error body: the one place it is built, for the app and for the HTTP layer. */
export function errorBody(status: AnyErrorStatus, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
}
