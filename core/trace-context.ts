// W3C Trace Context (https://www.w3.org/TR/trace-context/): the trace a request belongs to, so its
// log line can be found from a trace and the other way round.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './http-types.ts';

/** The caller's span, from a valid `traceparent`. */
export interface RemoteParent {
  traceId: string;
  spanId: string;
  /** The trace-flags byte: bit 0 says the caller samples (records) the trace. */
  flags: number;
}

// version 00 (a later version may append fields, which a parser of 00 ignores), trace id, parent
// id, flags; all-zero ids are invalid, as is version ff.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The parent a `traceparent` header names; undefined when it is missing or invalid (a new trace starts). */
function parseTraceparent(header: string | undefined): RemoteParent | undefined {
  const match = header === undefined ? null : TRACEPARENT.exec(header.trim());
  if (!match) return undefined;
  const [, version, traceId = '', spanId = '', flags = '', rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

/** A new trace id: 122 random bits of a UUID (its version digits set), cheaper than drawing 16 bytes. */
function randomTraceId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/**
 * Sets the request's `traceParent` (from its `traceparent` header) and `traceId`: the caller's
 * trace continued, or a new one. A tracer that records the request sets `traceId` to its span's.
 */
export function traceContext(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const parent = parseTraceparent(c.req.header('traceparent'));
    c.set('traceParent', parent);
    c.set('traceId', parent?.traceId ?? randomTraceId());
    return next();
  };
}
