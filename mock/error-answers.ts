// The mock answers every error with the contract's Error body `{code, message, status}` and the
// headers the contract declares, never with Prism's own formats (problem+json for routing,
// security and validation failures; `{"error": ...}` from its HTTP layer for unreadable JSON).
import type { components } from '../generated/openapi.ts';
import { ApiError } from '../server/errors.ts';
import { assertJsonContentType, PAYLOAD_TOO_LARGE_MESSAGE, parseJsonBody } from '../server/middleware/json-body.ts';
import type { Answer, Exchange } from './http-front.ts';
import type { ContractOperation, ContractView, RouteMatch } from './contract-view.ts';

type ErrorCode = components['schemas']['Error']['code'];

interface ErrorAnswer {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
}

interface Violation {
  location: string[];
  severity: string;
  message: string;
}

/** Problem types of Prism (`https://stoplight.io/prism/errors#<TYPE>`) that the mock answers in its own words. */
const PRISM_TYPE = /#([A-Z_]+)$/;
const CODE_BY_STATUS: Record<number, ErrorCode> = {
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
export function contractAnswer(prism: Answer, request: Exchange, view: ContractView): Answer {
  const path = new URL(request.url, 'http://mock').pathname;
  const match = view.match(request.method, path);
  const { 'sl-violations': violationsHeader, 'content-type': contentType, ...headers } = prism.headers;
  const body = parseJson(prism.body);

  if (isErrorBody(body)) {
    const violations = requestViolations(violationsHeader);
    // Prism answers an invalid request with the first example of the declared 400, which may
    // name another field than the one at fault; the violation it found says what is wrong.
    if (prism.status === 400 && violations.length > 0 && !asksForExample(request)) {
      body.message = violations.map((violation) => sentence(violation.message)).join(' ');
    }
    return jsonAnswer(prism.status, headers, body);
  }
  if (prism.status < 400) return { ...prism, headers: { ...headers, ...(contentType && { 'content-type': contentType }) } };

  const error = hasBearer(request) ? translate(prism.status, body, request, path, match) : unauthorized();
  return errorAnswer(error, view, match, passThrough(headers));
}

/**
 * A request the front answers itself, as the server does before validation: by the server's own
 * rules and in its order, a body not declared as UTF-8 JSON (415), over the size limit (413), or
 * empty, not UTF-8 or not JSON (400). Prism would answer these with 400s of its own, or, for a
 * body the front did not keep, not know of them.
 */
export function refusedBeforePrism(request: Exchange, view: ContractView): Answer | undefined {
  const match = view.match(request.method, new URL(request.url, 'http://mock').pathname);
  if (!match?.operation?.takesBody || !hasBearer(request)) return undefined;
  try {
    assertJsonContentType(request.headers['content-type']);
    if (request.bodyOverLimit) throw new ApiError(413, 'payload_too_large', PAYLOAD_TOO_LARGE_MESSAGE);
    parseJsonBody(request.body);
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return errorAnswer(error, view, match, {});
  }
}

/** The answer to a path the mock keeps to itself: the same as to any path the contract lacks. */
export function unknownPathAnswer(request: Exchange, view: ContractView): Answer {
  const path = new URL(request.url, 'http://mock').pathname;
  const error = hasBearer(request) ? notFound(path) : unauthorized();
  return errorAnswer(error, view, undefined, {});
}

/** The answer when Prism cannot be reached at all. */
export function mockFailure(error: unknown, request: Exchange, view: ContractView): Answer {
  const path = new URL(request.url, 'http://mock').pathname;
  const operation: ContractOperation | undefined = view.match(request.method, path)?.operation;
  const message = `The mock could not produce an answer: ${error instanceof Error ? error.message : String(error)}.`;
  return jsonAnswer(500, view.exampleHeaders(operation, 500), { code: 'internal_error', message, status: 500 });
}

function translate(status: number, body: unknown, request: Exchange, path: string, match: RouteMatch | undefined): ErrorAnswer {
  const problem = (body ?? {}) as { type?: string; title?: string; detail?: string; validation?: Violation[] };
  const type = PRISM_TYPE.exec(problem.type ?? '')?.[1];
  const method = request.method.toUpperCase();

  if (!match) return notFound(path);
  if (!match.operation) {
    return {
      status: 405,
      code: 'method_not_allowed',
      message: `${path} does not support ${method}; it supports ${match.allow.join(', ')}.`,
      headers: { allow: match.allow.join(', ') },
    };
  }
  if (type === 'NOT_FOUND') {
    // Prism's answer when `Prefer` (or `__code`, `__example`) asks for a response not declared.
    return {
      status: 400,
      code: 'validation_failed',
      message: `The \`Prefer\` header asks for a response that ${method} ${match.path} does not declare: ${problem.detail ?? problem.title}`,
    };
  }
  if (type === 'UNPROCESSABLE_ENTITY' || status === 422) {
    const details = (problem.validation ?? []).map((violation) => violation.message);
    if (details.length > 0) return { status: 400, code: 'validation_failed', message: sentence(details.join('; ')) };
    // Without violations, Prism could not read the preferences it was asked for.
    const reason = (problem.detail ?? '').replace(/[\s└─]+/g, ' ').trim();
    return { status: 400, code: 'validation_failed', message: sentence(`The \`Prefer\` header is not understood: ${reason}`) };
  }
  if (status === 401) return unauthorized();
  const code = CODE_BY_STATUS[status];
  const detail = sentence(problem.detail ?? problem.title ?? `Prism answered ${status}`);
  if (status >= 500 || !code) return { status: 500, code: 'internal_error', message: `The mock could not produce this response: ${detail}` };
  return { status, code, message: detail };
}

function errorAnswer(
  error: ErrorAnswer,
  view: ContractView,
  match: RouteMatch | undefined,
  headers: Record<string, string | string[]>,
): Answer {
  const declared = view.exampleHeaders(match?.operation, error.status);
  return jsonAnswer(error.status, { ...headers, ...declared, ...error.headers }, {
    code: error.code,
    message: error.message,
    status: error.status,
  });
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

function requestViolations(header: string | string[] | undefined): Violation[] {
  if (typeof header !== 'string') return [];
  const parsed = parseJson(Buffer.from(header));
  if (!Array.isArray(parsed)) return [];
  return (parsed as Violation[]).filter((violation) => violation.location?.[0] === 'request' && violation.severity === 'Error');
}

function asksForExample(request: Exchange): boolean {
  return /\bexample\s*=/.test(String(request.headers.prefer ?? '')) || new URL(request.url, 'http://mock').searchParams.has('__example');
}

/** Only the CORS headers of Prism's own error answers are worth keeping. */
function passThrough(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));
}

function jsonAnswer(status: number, headers: Record<string, string | string[]>, body: unknown): Answer {
  return { status, headers: { ...headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
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
