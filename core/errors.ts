import type { RequestProblem, RequestProblems } from '../contract/index.ts';
import type { components } from '../generated/openapi.ts';

export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['code'];

/**
 * Statuses the app sends with an Error body: those the contract's `x-error-codes` gives its codes
 * (the generated types carry no `x-` data, so this is a copy; test/server/http/cross-cutting.test.ts
 * checks the two agree).
 */
export const ERROR_STATUSES = [400, 401, 404, 405, 409, 410, 413, 415, 422, 429, 500, 501, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/**
 * Every status sent with an Error body: the app's, and those only the HTTP layer answers, for a
 * request the app never sees (408 too slow, 431 headers too large), which the contract has no code of.
 */
export type AnyErrorStatus = ErrorStatus | 408 | 431;

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
    super(message);
    this.name = 'ApiError';
  }

  get body(): ErrorBody {
    return { ...errorBody(this.status, this.code, this.message), ...(this.details && { details: this.details }) };
  }
}

/** A request the contract's validator found problems with: `message` names the first, `details` lists them all. */
export function validationFailed(problems: RequestProblems): ApiError {
  return new ApiError(400, 'validation_failed', problems[0].message, {}, problems);
}

/** The contract's Error body: the one place it is built, for the app and for the HTTP layer. */
export function errorBody(status: AnyErrorStatus, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
}
