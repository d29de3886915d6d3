import type { IncomingMessage } from 'node:http';

/** The body length the request announces; undefined when it has none or sends it chunked. */
export function declaredBodyLength(req: IncomingMessage): number | undefined {
  if (req.headers['transfer-encoding'] !== undefined) return undefined;
  const length = req.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}

/** Whether part of the request's body is still to come from the client. */
export function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || (declaredBodyLength(req) ?? 0) > 0;
}
