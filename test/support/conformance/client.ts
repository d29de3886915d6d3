// The one way the contract suite talks to a target. Every response is read whole and judged on
// the spot: by Prism's verdict when the target is the validating proxy, against the contract's
// declaration for the operation, and as an Error body when it is an error (a probe's 503 has a
// body of its own). A case only adds what its own behaviour is about.
import { expect } from 'vitest';
import { proxyViolations } from '../../../mock/node/validating-proxy.ts';
import { basePath, operation, responses } from '../contract-document.ts';
import { type ApiResponse, conformanceProblems, errorBodyProblems } from './conformance.ts';
import { type Endpoint, target } from './target.ts';

export type { ApiResponse } from './conformance.ts';

export interface ApiRequest {
  /** Upper case, as on the wire. */
  method: string;
  /** Path under the endpoint's base address, e.g. `/pets/42` (see `atOrigin` for paths served beside the API). */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The `Authorization` header: the endpoint's key as a bearer token when undefined, none when null. */
  authorization?: string | null;
  /** Sent as `application/json` unless `headers` names another Content-Type. */
  json?: unknown;
  /** Sent byte for byte, with exactly the headers given. */
  body?: string;
  /** The response a mock is to choose (`Prefer`); targets that compute their answers ignore it. */
  prefer?: { code: number; example?: string };
}

export function methodOf(operationId: string): string {
  return operation(operationId).method;
}

/** The request as a person reads it in a failure message: method, path, query, headers and body. */
export function describeRequest(request: ApiRequest): string {
  const query = request.query && Object.keys(request.query).length > 0 ? `?${new URLSearchParams(request.query)}` : '';
  const authorization =
    request.authorization === undefined
      ? 'Bearer <the target key>'
      : request.authorization === null
        ? '(none)'
        : JSON.stringify(request.authorization);
  const lines = [`${request.method} ${request.path}${query}`, `  Authorization: ${authorization}`];
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`  ${name}: ${JSON.stringify(value)}`);
  if (request.json !== undefined) lines.push(`  JSON body: ${JSON.stringify(request.json)}`);
  if (request.body !== undefined)
    lines.push(`  body (${request.body.length} chars): ${JSON.stringify(request.body.slice(0, 300))}`);
  return lines.join('\n');
}

/**
 * `endpoint` addressed at its origin, for paths as the service serves them (`/v1/pets`,
 * `/healthz`): the probes are served beside the API, not under its base path.
 */
export function atOrigin(endpoint: Endpoint = target): Endpoint {
  if (!endpoint.baseUrl.endsWith(basePath))
    throw new Error(`The base address ${endpoint.baseUrl} does not end with the contract's base path ${basePath}`);
  return { ...endpoint, baseUrl: endpoint.baseUrl.slice(0, endpoint.baseUrl.length - basePath.length) };
}

function urlOf(endpoint: Endpoint, request: ApiRequest): string {
  const url = new URL(endpoint.baseUrl + request.path);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.append(name, value);
  return url.href;
}

function headersOf(endpoint: Endpoint, request: ApiRequest): Headers {
  const headers = new Headers(request.headers);
  if (request.authorization === undefined) headers.set('Authorization', `Bearer ${endpoint.apiKey}`);
  else if (request.authorization !== null) headers.set('Authorization', request.authorization);
  if (request.json !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  if (request.prefer && target.capabilities.preferHeader) {
    headers.set(
      'Prefer',
      [`code=${request.prefer.code}`, ...(request.prefer.example ? [`example=${request.prefer.example}`] : [])].join(
        ', ',
      ),
    );
  }
  return headers;
}

/**
 * Sends `request` and reads the whole response, so the checks and the case see the same bytes;
 * judges nothing, for checks (such as property runs) that report problems themselves.
 */
export async function sendUnchecked(request: ApiRequest, endpoint: Endpoint = target): Promise<ApiResponse> {
  const raw = await fetch(urlOf(endpoint, request), {
    method: request.method,
    headers: headersOf(endpoint, request),
    // As bytes, so that fetch adds no Content-Type of its own to a text body.
    body:
      request.json !== undefined
        ? JSON.stringify(request.json)
        : request.body === undefined
          ? undefined
          : new TextEncoder().encode(request.body),
    redirect: 'manual',
  });
  const text = await raw.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: raw.status, headers: raw.headers, text, body };
}

/** What is wrong with `response` to `request`, for the operation it reached (none outside the contract's paths). */
export function responseProblems(operationId: string | undefined, response: ApiResponse): string[] {
  return [
    ...(target.capabilities.validatedByProxy
      ? proxyViolations(response).map((violation) => `the validating proxy reports a contract violation: ${violation}`)
      : []),
    ...(response.status >= 500 && !declaresStatus(operationId, response.status)
      ? [`a ${response.status} server error`]
      : []),
    ...(operationId === undefined ? [] : conformanceProblems(operationId, response)),
    ...(response.status >= 400 && !isProbe(operationId) ? errorBodyProblems(response) : []),
  ];
}

/** A probe (`security: []`) answers its errors with a body of its own, which conformanceProblems checks. */
function isProbe(operationId: string | undefined): boolean {
  return operationId !== undefined && operation(operationId).isPublic;
}

/** Whether the operation declares this status: a declared 503 is a documented answer, an undeclared 500 a failure. */
function declaresStatus(operationId: string | undefined, status: number): boolean {
  return operationId !== undefined && responses(operationId).some(([declared]) => declared === String(status));
}

/**
 * Sends `request` to the target (or to `endpoint`) and fails the test when the response breaks
 * the contract for `operationId`, naming the request and every problem.
 */
export async function send(
  operationId: string | undefined,
  request: ApiRequest,
  endpoint: Endpoint = target,
): Promise<ApiResponse> {
  const response = await sendUnchecked(request, endpoint);
  expect(
    responseProblems(operationId, response),
    `${describeRequest(request)}\n→ ${response.status} ${response.text.slice(0, 500)}`,
  ).toEqual([]);
  return response;
}

export function expectStatus(request: ApiRequest, response: ApiResponse, status: number): void {
  expect(response.status, `${describeRequest(request)}\n→ ${response.status} ${response.text.slice(0, 500)}`).toBe(
    status,
  );
}

/** The Error body's `code`, after `send` has checked its shape. */
export function errorCode(response: ApiResponse): string {
  return (response.body as { code: string }).code;
}
