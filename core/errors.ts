import { IDEMPOTENCY_KEY_HEADER as IDEMPOTENCY_KEY } from '../contract/idempotency.ts';
import type { RequestProblem } from '../contract/problems.ts';
import type { RequestProblems } from '../contract/request-validator.ts';
import type { components } from '../generated/openapi.ts';
import { ERROR_CODE_STATUSES, MAX_ERROR_DETAILS } from '../generated/rules.ts';
import type { Caller } from './middleware/identify-caller.ts';

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
// once, with what it becomes (an Error body and its status, a 503, an exit code). Every Error answer
// is made by `errors` below: its code's status comes from the contract's `x-error-codes`, and its
// sentence is written here alone, so the server, both mocks and MSW answer a case alike and the
// contract's examples can say exactly that (test/conformance/error-examples.test.ts walks them).

/** `Error` with V8's (Node's, Chromium's) setting of how many frames a new error's stack captures. */
const V8_ERROR = Error as ErrorConstructor & { stackTraceLimit?: number };

interface ApiErrorOptions {
  headers?: Record<string, string>;
  /** Every problem of an invalid request, in the body's `details`. */
  details?: RequestProblem[];
}

/** A failure that becomes the contract's Error body; thrown anywhere, answered in one place. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly headers: Record<string, string>;
  readonly details: RequestProblem[] | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    { headers = {}, details }: ApiErrorOptions = {},
  ) {
    // An answer, not a bug: its stack is never shown or logged, and capturing one was a tenth of
    // the cost of a refused request (a flood of 401s or 429s, the docs' refusals). V8 reads the
    // limit; other engines ignore it.
    const stackTraceLimit = V8_ERROR.stackTraceLimit;
    V8_ERROR.stackTraceLimit = 0;
    super(message);
    V8_ERROR.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.status = ERROR_CODE_STATUSES[code];
    this.headers = headers;
    this.details = details;
  }

  get body(): ErrorBody {
    return { ...errorBody(this.status, this.code, this.message), ...(this.details && { details: this.details }) };
  }
}

/** `\`a\``, `\`a\` or \`b\``, `\`a\`, \`b\` or \`c\``. */
function orList(values: string[]): string {
  const quoted = values.map((value) => `\`${value}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

/** Who a refused request came from, as its answer names it. */
type Refused = 'key' | 'address';
const CALLER: Record<Refused, string> = { key: 'This API key', address: 'This client address' };

const RETRY = 'retry after `Retry-After` seconds';

export const errors = {
  /** A request the contract's validator found problems with: `message` names the first, `details` lists them. */
  invalidRequest: (problems: RequestProblems) =>
    // As many as the contract's Error schema allows, so that a body of thousands of unknown fields
    // gets an answer about its own size, not many times larger.
    new ApiError('validation_failed', problems[0].message, { details: problems.slice(0, MAX_ERROR_DETAILS) }),
  /** A body field whose value names no item of the collection it refers to. */
  missingReference: (field: string, noun: string, id: number): ApiError =>
    errors.invalidRequest([
      { in: 'body', name: field, message: `Body field \`${field}\` names no ${noun}: no ${noun} has the id ${id}.` },
    ]),
  /** A request the HTTP layer could not read at all (a header or URL it cannot decode). */
  unreadableRequest: () => new ApiError('validation_failed', 'The request could not be read.'),
  bodyNotUtf8: () =>
    new ApiError('malformed_json', 'The request body is not valid UTF-8; send the JSON encoded as UTF-8.'),
  bodyEmpty: () => new ApiError('malformed_json', 'The request body is empty; send a JSON object.'),
  // The JavaScript engine's own words differ between engines and versions (Node 20 and 24, a
  // browser under MSW), so the sentence names no position.
  bodyNotJson: () =>
    new ApiError('malformed_json', 'The request body is not valid JSON; check its quotes, commas and brackets.'),
  bodyKeyTwice: (key: string) =>
    new ApiError(
      'malformed_json',
      `The request body has the key \`${key}\` twice in one object (escapes decoded); send each key once.`,
    ),
  invalidCursor: (reason: string) =>
    new ApiError(
      'invalid_cursor',
      `Query parameter \`cursor\` ${reason}; follow the \`Link\` header of the previous page, or start again without a cursor.`,
    ),
  invalidIdempotencyKey: (complaint: string) =>
    new ApiError('invalid_idempotency_key', `Header \`${IDEMPOTENCY_KEY}\` ${complaint}.`),
  unauthorized: (credentials: Caller['credentials']) =>
    new ApiError(
      'unauthorized',
      {
        none: 'An API key is required: send it as `Authorization: Bearer <API_KEY>`.',
        malformed: 'The `Authorization` header must have the form `Bearer <API_KEY>`.',
        bearer: 'The API key is not valid: it is unknown or has been revoked.',
      }[credentials],
      { headers: { 'WWW-Authenticate': 'Bearer' } },
    ),
  itemNotFound: (noun: string, id: number | string) => new ApiError('not_found', `No ${noun} has the id ${id}.`),
  pathNotFound: (path: string) => new ApiError('not_found', `There is no resource at ${path}.`),
  docsPageNotFound: (path: string) => new ApiError('not_found', `There is no documentation page at ${path}.`),
  docsNotBuilt: () =>
    new ApiError(
      'not_found',
      'The documentation page has not been built on this server: run `npm run docs` (or restart with `npm start`, which builds it), then reload /docs/.',
    ),
  docsBeingBuilt: (retryAfterSeconds: number) =>
    new ApiError(
      'service_unavailable',
      `The documentation is being built (npm start builds it beside the running API); ${RETRY}.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  /** The docs' own limit per address (server/docs/routes.ts), which is the server's, not the contract's. */
  docsRateLimited: (limits: { perMinute: number; perDay: number }, retryAfterSeconds: number) =>
    new ApiError(
      'rate_limited',
      `This client address has asked for the docs more than ${limits.perMinute} times a minute or ${limits.perDay} times a day; ${RETRY}.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  docsBanned: (retryAfterSeconds: number) =>
    new ApiError(
      'key_banned',
      `This client address is temporarily banned from the docs for asking while limited; ${RETRY}.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  methodNotAllowed: (path: string, method: string, allowed: string[]) =>
    new ApiError('method_not_allowed', `${path} does not support ${method}; it supports ${allowed.join(', ')}.`, {
      headers: { Allow: allowed.join(', ') },
    }),
  /** A deprecated operation past its sunset: `removed` names it and its date, `successor` what to use. */
  gone: (removed: string, successor: string | undefined) =>
    new ApiError('gone', `${removed}${successor ? `; use ${successor} instead` : ''}.`),
  idempotencyKeyInProgress: (retryAfterSeconds: number) =>
    new ApiError(
      'idempotency_key_in_progress',
      `A request with this ${IDEMPOTENCY_KEY} is still being answered; ${RETRY}.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  idempotencyKeyReused: () =>
    new ApiError(
      'idempotency_key_reused',
      `This ${IDEMPOTENCY_KEY} was used with a different request body or operation; send a new key for a new create.`,
    ),
  /** A change of `field` its transitions do not allow; `onward` says where it can go instead. */
  invalidTransition: (field: string, noun: string, id: number | string, from: string, to: string, onward: string[]) =>
    new ApiError(
      'invalid_transition',
      `The ${field} of ${noun} ${id} cannot go from \`${from}\` to \`${to}\`; from \`${from}\` ${
        onward.length === 0 ? 'it can go nowhere' : `it can go to ${orList(onward)}`
      }.`,
    ),
  preconditionFailed: (ifMatch: string, noun: string, id: number | string) =>
    new ApiError(
      'precondition_failed',
      `If-Match \`${ifMatch.slice(0, 200)}\` does not match the current ETag of ${noun} ${id}; fetch it again and retry.`,
    ),
  /** A create beyond the owner's `x-owner-limit`, answered with the limit's own code (the contract declares it with 409). */
  ownerLimitReached: (code: ErrorCode, noun: string) =>
    new ApiError(
      code,
      `This API key's line has as many ${noun}s as it may have; delete one before registering another.`,
    ),
  payloadTooLarge: () =>
    new ApiError(
      'payload_too_large',
      'The request body is larger than this operation accepts; its description states the limit.',
    ),
  unsupportedMediaType: (accepted: readonly string[], got: string | undefined) =>
    new ApiError(
      'unsupported_media_type',
      `The request body must be sent with ${accepted.map((type) => `\`Content-Type: ${type}\``).join(' or ')}; ${
        got ? `got \`${got.slice(0, 100)}\`` : 'got none'
      }.`,
    ),
  unsupportedCharset: (charset: string) =>
    new ApiError(
      'unsupported_media_type',
      `The request body must be encoded as UTF-8; \`charset=${charset.slice(0, 40)}\` is not supported.`,
    ),
  unsupportedContentCoding: (codings: string[]) =>
    new ApiError(
      'unsupported_media_type',
      `The request body must be sent without a content coding; \`Content-Encoding: ${codings.join(', ').slice(0, 100)}\` is not supported.`,
      { headers: { 'Accept-Encoding': 'identity' } },
    ),
  // The numbers are in the headers (`X-RateLimit-*`, `Retry-After`): a sentence that restated them
  // would differ from one second to the next and from one plan to another.
  rateLimited: (caller: Refused, retryAfterSeconds: number) =>
    new ApiError('rate_limited', `${CALLER[caller]} has used up its rate limit for the current window; ${RETRY}.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  banned: (caller: Refused, retryAfterSeconds: number) =>
    new ApiError(
      'key_banned',
      `${CALLER[caller]} is temporarily banned for sending requests while rate limited; ${RETRY} and back off exponentially.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  internalError: () =>
    new ApiError(
      'internal_error',
      'An unexpected error occurred; quote the `X-Request-Id` of this answer when reporting it.',
    ),
  notImplemented: (operation: string) =>
    new ApiError('not_implemented', `${operation} is declared by the contract but not implemented by this server yet.`),
  /**
   * A dependency could not do the work. `uncertain`: a write whose operation ran may have reached
   * the storage before the failure was seen, so only a read, or a request refused before its
   * operation ran, can promise that nothing changed.
   */
  unavailable: (dependency: Dependency, uncertain: boolean, retryAfterSeconds: number) => {
    const what = `its ${DEPENDENCY_NAMES[dependency]}`;
    return new ApiError(
      'service_unavailable',
      uncertain
        ? `The service could not confirm with ${what} that this request was carried out: it may have been stored. Check (list or fetch) before repeating it; ${RETRY}.`
        : `The service cannot reach ${what} right now, so nothing was changed; ${RETRY}.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    );
  },
  /** A request to a mock's own controls (its `Prefer` header, scenarios, admin routes) it cannot follow. */
  mockControl: (message: string) => new ApiError('validation_failed', message),
};

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

/** The contract's Error body: the one place it is built, for the app and for the HTTP layer. */
export function errorBody(status: AnyErrorStatus, code: ErrorCode, message: string): ErrorBody {
  return { code, message, status };
}
