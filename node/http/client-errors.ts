import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../core/logger.ts';
import { closeGently, isClosing } from './closing.ts';
import { type Refusal, rawRefusal } from './error-answers.ts';
import { afterAnswersAhead, requestStillArriving } from './pipelining.ts';
import { isDroppingAnsweredBody } from './unread-body.ts';

export interface ClientErrorLimits {
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  lingerMs: number;
}

/** The client went away: there is nobody to answer. */
const CLIENT_GONE = new Set(['ECONNRESET', 'HPE_INVALID_EOF_STATE']);

/**
 * Node's own refusals, for requests it cannot parse or that arrive too slowly (its 'clientError'
 * event), answered with the Error body instead of a bare status line, and logged as the client's
 * doing: at info, without a stack.
 */
export function answerClientErrors(server: Server, logger: Logger, limits: ClientErrorLimits): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection already refused keeps failing to parse what it still receives.
    if (isClosing(socket)) return;
    if (CLIENT_GONE.has(error.code ?? '')) {
      logger.info({ event: 'client aborted', problem: error.code });
      socket.destroy();
      return;
    }
    if (isDroppingAnsweredBody(socket)) {
      logger.info({ event: 'client stalled sending a body already answered', problem: error.code });
      socket.destroy();
      return;
    }
    // Once refused, what else arrives fails to parse too; the first refusal is the answer.
    if (refusing.has(socket)) return;
    refusing.add(socket);
    const refusal = refusalFor(error, limits);
    logger.info({ status: refusal.status, code: refusal.code, problem: error.code });
    const refuse = () => {
      if (socket.writable) socket.write(rawRefusal(refusal));
      closeGently(socket, limits.lingerMs);
    };
    // The malformed bytes are the body of the latest request: that request is broken, and the
    // refusal is its answer, after those of the requests ahead of it, unless its own has begun.
    const broken = requestStillArriving(socket);
    if (broken) {
      afterAnswersAhead(socket, broken.req, () => {
        if (!broken.res.headersSent) refuse();
        else afterAnswersAhead(socket, undefined, () => closeGently(socket, limits.lingerMs));
      });
      return;
    }
    // They follow complete requests (pipelined), which are already running and may store what
    // they were sent: their answers go out first, in order, then the refusal, so nothing done goes unsaid.
    afterAnswersAhead(socket, undefined, refuse);
  });
}

const refusing = new WeakSet<Duplex>();

/**
 * `CONNECT` asks for a tunnel, which Node hands over as a bare socket and, unanswered, closes
 * without a word; this server is no proxy, and says so with the Error body, after the answers to
 * the requests pipelined ahead of it.
 */
export function refuseTunnels(server: Server, logger: Logger, lingerMs: number): void {
  server.on('connect', (_req, socket: Duplex) => {
    logger.info({ method: 'CONNECT', status: 400, code: 'validation_failed', problem: 'CONNECT' });
    afterAnswersAhead(socket, undefined, () => {
      if (socket.writable)
        socket.write(
          rawRefusal({
            status: 400,
            code: 'validation_failed',
            message: 'CONNECT asks for a tunnel, and this server is no proxy; send requests for its own paths.',
          }),
        );
      closeGently(socket, lingerMs);
    });
  });
}

function refusalFor(error: NodeJS.ErrnoException & { reason?: string }, limits: ClientErrorLimits): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      // The contract has no code for oversized headers; like a 413, only a smaller request can succeed.
      return {
        status: 431,
        code: 'payload_too_large',
        message: `The request line and headers are larger than ${limits.maxHeaderBytes} bytes; send fewer or shorter headers.`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'payload_too_large',
        message: 'The chunk extensions of the request body are too large; send the body without chunk extensions.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // The contract has no code for a timeout; the request as received is incomplete, so invalid.
      return {
        status: 408,
        code: 'validation_failed',
        message: `The request did not arrive in time (its headers within ${limits.headersTimeoutMs / 1000} s, all of it within ${limits.requestTimeoutMs / 1000} s); send it again on a new connection.`,
      };
    default: {
      const reason = error.reason ? ` (${error.reason.replace(/\.$/, '').toLowerCase()})` : '';
      return {
        status: 400,
        code: 'validation_failed',
        message: `The request is not valid HTTP/1.1${reason}; correct it and send it again on a new connection.`,
      };
    }
  }
}
