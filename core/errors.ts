import type { RequestProblem } from '../contract/problems.ts';
import type { RequestProblems } from '../contract/request-validator.ts';
import type { components } from '../generated/openapi.ts';
import type { ERROR_CODE_STATUSES } from '../generated/rules.ts';

export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['code'];

/** Statuses the app sends with an Error body: those the contract's `x-error-codes` gives its codes. */
export type ErrorStatus = (typeof ERROR_CODE_STATUSES)[ErrorCode];

/**
 * Every status sent with an Error body: the app's, and those only the HTTP layer answers, for a
 * request the app never sees (408 too slow, 431 headers too large), which the contract has no code of.
 */
export type AnyErrorStatus = ErrorStatus | 408 | 417 | 431 | 505;

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
