import { type ServerResponse, STATUS_CODES } from 'node:http';
import { type AnyErrorStatus, type ErrorCode, errorBody } from '../../core/errors.ts';
import { endConnectionAfter } from './pipelining.ts';

/** A refusal answered below the app, by the HTTP layer, still with the contract's Error body. */
export interface Refusal {
  status: AnyErrorStatus;
  code: ErrorCode;
  message: string;
}

/** The app's hardening headers (core/app.ts), on the answers given below it too. */
const HARDENING = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

function errorJson({ status, code, message }: Refusal): string {
  return JSON.stringify(errorBody(status, code, message));
}

/**
 * The whole HTTP/1.1 message, for Node's 'clientError' event, which hands over only the socket:
 * the bytes written are all the client gets, so they must be a complete, well-formed answer.
 */
export function rawRefusal(refusal: Refusal): string {
  const body = errorJson(refusal);
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'Content-Type: application/json',
    ...Object.entries(HARDENING).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Date: ${new Date().toUTCString()}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Answers through Node's response object and closes the connection after the answer; requests
 * pipelined behind it are not run.
 */
export function refuseAndClose(res: ServerResponse, refusal: Refusal): void {
  endConnectionAfter(res.req);
  const body = errorJson(refusal);
  res.writeHead(refusal.status, {
    ...HARDENING,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}

/** The same answer as a fetch Response, for the HTTP adapter's error handler. */
export function refusalResponse(refusal: Refusal): Response {
  return new Response(errorJson(refusal), {
    status: refusal.status,
    headers: { ...HARDENING, 'Content-Type': 'application/json' },
  });
}
