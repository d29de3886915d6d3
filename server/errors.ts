import type { RequestProblem, RequestProblems } from '../contract/index.ts';
import type { components } from '../generated/openapi.ts';

export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = ErrorBody['code'];

/** Statuses the service sends with an Error body. */
export type ErrorStatus = 400 | 401 | 404 | 405 | 410 | 413 | 415 | 429 | 500 | 503;

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
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      ...(this.details && { details: this.details }),
    };
  }
}

/** A request the contract's validator found problems with: `message` names the first, `details` lists them all. */
export function validationFailed(problems: RequestProblems): ApiError {
  return new ApiError(400, 'validation_failed', problems[0].message, {}, problems);
}

export function errorBody(status: ErrorStatus, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
}
