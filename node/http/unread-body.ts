import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { closeGently } from './closing.ts';
import { mayWithholdBody } from './expect-continue.ts';
import { bodyStillArriving, declaredBodyLength } from './request-body.ts';

export interface UnreadBodyLimits {
  /** A body refused unread is read and dropped after the answer up to this declared length. */
  drainLimitBytes: number;
  /** How long a connection closed after such an answer keeps reading before it is dropped. */
  lingerMs: number;
}

const droppingAnsweredBody = new WeakSet<Duplex>();

/**
 * Whether the connection is dropping the rest of a body whose request was already answered; a
 * request timeout there concerns no unanswered request, so it gets no answer of its own.
 */
export function isDroppingAnsweredBody(socket: Duplex): boolean {
  return droppingAnsweredBody.has(socket);
}

/**
 * Node's response class, deciding when the status line is written what becomes of a connection
 * whose request body has not fully arrived, as when the app refuses a request unread (401, 413,
 * 415...). A body of known length up to `drainLimitBytes` is read and dropped after the answer, so
 * the connection carries the client's next request. A longer body, one of unknown length, or one
 * the client may hold back (`Expect: 100-continue` answered without a 100, so nobody knows where
 * its next request starts) gets `Connection: close`, and the connection is closed gently after the
 * answer. A connection is never promised to stay open and then dropped.
 */
export function unreadBodyResponse({
  drainLimitBytes,
  lingerMs,
}: UnreadBodyLimits): typeof ServerResponse<IncomingMessage> {
  const drainable = (req: IncomingMessage) =>
    !mayWithholdBody(req) && (declaredBodyLength(req) ?? Infinity) <= drainLimitBytes;

  return class UnreadBodyResponse extends ServerResponse<IncomingMessage> {
    override writeHead(
      statusCode: number,
      statusMessage?: string,
      headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
    ): this;
    override writeHead(statusCode: number, headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this;
    override writeHead(...args: [number, ...unknown[]]): this {
      const { req } = this;
      if (!req.readableEnded) this.once('finish', () => discardRestOfBody(req));
      if (bodyStillArriving(req)) {
        if (drainable(req)) this.once('finish', () => markDroppingAnsweredBody(req));
        else {
          this.shouldKeepAlive = false;
          // Node ends a connection it was told to close with `destroySoon()`, which resets it
          // while the client may still be sending.
          req.socket.destroySoon = () => closeGently(req.socket, lingerMs);
        }
      }
      return Reflect.apply(super.writeHead, this, args) as this;
    }
  };
}

function markDroppingAnsweredBody(req: IncomingMessage): void {
  if (req.complete) return;
  droppingAnsweredBody.add(req.socket);
  req.once('end', () => droppingAnsweredBody.delete(req.socket));
}

/**
 * Lets the rest of a body the app no longer reads flow off the connection. The app's reader
 * pauses the request whenever its own queue is full; once the answer is out nobody empties that
 * queue, and a paused request stops Node reading the connection at all.
 */
function discardRestOfBody(req: IncomingMessage): void {
  if (req.readableEnded) return;
  req.removeAllListeners('data');
  req.resume();
}
