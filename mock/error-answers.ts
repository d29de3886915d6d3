// The mock answers every error with the contract's Error body `{code, message, status}` and the
// headers the contract declares, never with Prism's own formats (problem+json for routing,
// security and validation failures; `{"error": ...}` from its HTTP layer for unreadable JSON).
import { type Contract, type ContractOperation, type PathMatch, requestValidator } from '../contract/index.ts';
import type { components } from '../generated/openapi.ts';
import { ApiError, validationFailed } from '../server/errors.ts';
import { parseJsonBody } from '../server/json-body.ts';
import { PAYLOAD_TOO_LARGE_MESSAGE } from '../server/middleware/body-size-limit.ts';
import { assertJsonContentType } from '../server/middleware/json-content-type.ts';
import { exampleHeaders } from './example-headers.ts';
import type { Answer, Exchange } from './http-front.ts';

type ErrorBody = components['schemas']['Error'];

interface ErrorAnswer extends ErrorBody {
  headers?: Record<string, string>;
}

/** The contract path a request reaches, and the operation its method reaches there, if any. */
interface Route extends PathMatch {
  operation: ContractOperation | undefined;
}

/** Problem types of Prism (`https://stoplight.io/prism/errors#<TYPE>`) that the mock answers in its own words. */
const PRISM_TYPE = /#([A-Z_]+)$/;
const CODE_BY_STATUS: Record<number, ErrorBody['code']> = {
  400: 'validation_failed',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  410: 'gone',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};
/** Prism's mock accepts any bearer token: only its presence is checked. */
const BEARER = /^bearer\s+\S+/i;

/** Prism's answer to `request`, as the real service would shape it. */
export function contractAnswer(prism: Answer, request: Exchange, contract: Contract): Answer {
  const path = pathOf(request);
  const { 'sl-violations': _violations, 'content-type': contentType, ...headers } = prism.headers;
  const body = parseJson(prism.body);

  if (isErrorBody(body)) return jsonAnswer(prism.status, headers, body);
  if (prism.status < 400)
    return { ...prism, headers: { ...headers, ...(contentType && { 'content-type': contentType }) } };

  const route = routeOf(request, contract);
  const error = hasBearer(request) ? translate(prism.status, body, request, path, route) : unauthorized();
  return errorAnswer(error, contract, route?.operation, passThrough(headers));
}

/**
 * A request the front answers itself, as the server does before its handler: by the server's
 * own rules and in its order, a body not declared as UTF-8 JSON (415), over the size limit
 * (413), or empty, not UTF-8 or not JSON (400), then parameters or a body the contract's
 * validator finds problems with (400). Prism would answer these with 400s in its own words, or,
 * for a body the front did not keep, not know of them.
 */
export function refusedBeforePrism(request: Exchange, contract: Contract): Answer | undefined {
  const route = routeOf(request, contract);
  const operation = route?.operation;
  if (!operation || !hasBearer(request)) return undefined;
  try {
    let body: unknown;
    if (operation.bodySchema) {
      assertJsonContentType(request.headers['content-type']);
      if (request.bodyOverLimit) throw new ApiError(413, 'payload_too_large', PAYLOAD_TOO_LARGE_MESSAGE);
      body = parseJsonBody(request.body);
    }
    const searchParams = new URL(request.url, 'http://mock').searchParams;
    const query = Object.fromEntries(
      [...new Set(searchParams.keys())].map((name) => [name, searchParams.getAll(name)]),
    );
    const validation = requestValidator(contract).validate(operation.operationId, { query, path: route.params, body });
    if (!validation.valid) throw validationFailed(validation.problems);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return errorAnswer(error, contract, operation, {});
  }
}

/** The answer to a path the mock keeps to itself: the same as to any path the contract lacks. */
export function unknownPathAnswer(request: Exchange, contract: Contract): Answer {
  const error = hasBearer(request) ? notFound(pathOf(request)) : unauthorized();
  return errorAnswer(error, contract, undefined, {});
}

/** The answer when Prism cannot be reached at all. */
export function mockFailure(error: unknown, request: Exchange, contract: Contract): Answer {
  const message = `The mock could not produce an answer: ${error instanceof Error ? error.message : String(error)}.`;
  const headers = exampleHeaders(contract, routeOf(request, contract)?.operation, 500);
  return jsonAnswer(500, headers, { code: 'internal_error', message, status: 500 });
}

function routeOf(request: Exchange, contract: Contract): Route | undefined {
  const match = contract.match(pathOf(request));
  return match && { ...match, operation: match.path.operationFor(request.method) };
}

function pathOf(request: Exchange): string {
  return new URL(request.url, 'http://mock').pathname;
}

function translate(
  status: number,
  body: unknown,
  request: Exchange,
  path: string,
  route: Route | undefined,
): ErrorAnswer {
  const problem = (body ?? {}) as { type?: string; title?: string; detail?: string };
  const type = PRISM_TYPE.exec(problem.type ?? '')?.[1];
  const method = request.method.toUpperCase();

  if (!route) return notFound(path);
  if (!route.operation) {
    const allow = route.path.allow.join(', ');
    const message = `${path} does not support ${method}; it supports ${allow}.`;
    return { status: 405, code: 'method_not_allowed', message, headers: { allow } };
  }
  if (type === 'NOT_FOUND') {
    // Prism's answer when `Prefer` (or `__code`, `__example`) asks for a response not declared.
    const undeclared = problem.detail ?? problem.title;
    const message = `The \`Prefer\` header asks for a response that ${method} ${route.path.servedPath} does not declare: ${undeclared}`;
    return { status: 400, code: 'validation_failed', message };
  }
  if (type === 'UNPROCESSABLE_ENTITY' || status === 422) {
    // The front has validated the request already: Prism could not read the preferences it was asked for.
    const reason = (problem.detail ?? '').replace(/[\s└─]+/g, ' ').trim();
    return {
      status: 400,
      code: 'validation_failed',
      message: sentence(`The \`Prefer\` header is not understood: ${reason}`),
    };
  }
  if (status === 401) return unauthorized();
  const code = CODE_BY_STATUS[status];
  const detail = sentence(problem.detail ?? problem.title ?? `Prism answered ${status}`);
  if (status >= 500 || !code)
    return { status: 500, code: 'internal_error', message: `The mock could not produce this response: ${detail}` };
  return { status, code, message: detail };
}

function errorAnswer(
  error: ErrorAnswer,
  contract: Contract,
  operation: ContractOperation | undefined,
  headers: Record<string, string | string[]>,
): Answer {
  const declared = exampleHeaders(contract, operation, error.status);
  const { code, message, status, details } = error;
  return jsonAnswer(
    status,
    { ...headers, ...declared, ...error.headers },
    { code, message, status, ...(details && { details }) },
  );
}

function hasBearer(request: Exchange): boolean {
  return BEARER.test(String(request.headers.authorization ?? ''));
}

function notFound(path: string): ErrorAnswer {
  return { status: 404, code: 'not_found', message: `There is no resource at ${path}.` };
}

function unauthorized(): ErrorAnswer {
  return {
    status: 401,
    code: 'unauthorized',
    message: 'An API key is required: send it as `Authorization: Bearer <API_KEY>` (the mock accepts any key).',
    headers: { 'www-authenticate': 'Bearer' },
  };
}

/** Only the CORS headers of Prism's own error answers are worth keeping. */
function passThrough(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'),
  );
}

function jsonAnswer(status: number, headers: Record<string, string | string[]>, body: unknown): Answer {
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  };
}

function isErrorBody(body: unknown): body is { code: string; message: string; status: number } {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message, status } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && typeof status === 'number';
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
