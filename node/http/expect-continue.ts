import type { IncomingMessage, Server } from 'node:http';
import { declaredBodyLength } from './request-body.ts';

const continued = new WeakSet<IncomingMessage>();

/**
 * Answers `Expect: 100-continue` only once the app starts reading the body. Node's default sends
 * `100 Continue` at once, inviting the body before the app has checked the key, the path, the
 * media type and the declared size; a request refused on any of those gets its final answer
 * without the client sending the body. A `Content-Length` over `maxBodyBytes` never gets a 100:
 * the app refuses it with 413 before reading, but opening the body to check it looks like a read.
 */
export function continueWhenBodyIsRead(server: Server, maxBodyBytes: number): void {
  server.on('checkContinue', (req, res) => {
    if (!((declaredBodyLength(req) ?? 0) > maxBodyBytes)) {
      // The HTTP adapter reads bodies in flowing mode, which starts with 'resume'.
      req.once('resume', () => {
        if (res.headersSent) return;
        res.writeContinue();
        continued.add(req);
      });
    }
    server.emit('request', req, res);
  });
}

/** Whether the client may still be holding its body back, waiting for a 100 it was not sent. */
export function mayWithholdBody(req: IncomingMessage): boolean {
  return req.headers.expect?.toLowerCase() === '100-continue' && !continued.has(req);
}
