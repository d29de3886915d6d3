import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { RequestError } from '@hono/node-server';
import type { Logger } from '../../core/logger.ts';
import { isClosing } from './closing.ts';
import { refusalResponse, refuseAndClose } from './error-answers.ts';
import { arrivedAfterLast } from './pipelining.ts';

/**
 * Refuses, before the app sees them, requests HTTP/1.1 forbids a server to act on: an HTTP/1.1
 * request without exactly one `Host` (RFC 9112, section 3.2; several could be read differently by
 * a proxy in front) or whose target is no path (`OPTIONS *`). A request that arrives on a connection being
 * closed, or pipelined behind one that closes it, is never run: its answer could not be delivered.
 */
export function refuseMalformedRequests(next: RequestListener, logger: Logger): RequestListener {
  return (req, res) => {
    if (isClosing(req.socket) || arrivedAfterLast(req)) {
      req.resume();
      return;
    }
    const malformation = malformationOf(req);
    if (malformation === undefined) {
      // HTTP/1.0 has no Host (load balancers' health checks, HAProxy's `option httpchk`, send
      // none): the request is for this server, at the address it was received on.
      if (req.headers.host === undefined) req.headers.host = localAuthority(req);
      return next(req, res);
    }
    const { status = 400, code = 'validation_failed' } = malformation;
    logger.info({ method: req.method, status, code, problem: malformation.problem });
    refuseAndClose(res, { status, code, message: malformation.message });
  };
}

function localAuthority({ socket }: IncomingMessage): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return `${address.includes(':') ? `[${address}]` : address}:${socket.localPort}`;
}

/**
 * An `Expect` other than `100-continue` (the only expectation HTTP/1.1 defines): Node answers 417
 * with an empty body; this answers it with the Error body, naming the header.
 */
export function refuseExpectations(server: Server, logger: Logger): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const expectation = String(req.headers.expect ?? '').slice(0, 50);
    logger.info({ method: req.method, status: 417, code: 'validation_failed', problem: 'unknown expectation' });
    refuseAndClose(res, {
      status: 417,
      code: 'validation_failed',
      message: `The server cannot meet \`Expect: ${expectation}\`; send the request without it (only \`100-continue\` is known).`,
    });
  });
}

interface Malformation {
  /** For the log line. */
  problem: string;
  message: string;
  /** 400 `validation_failed` unless given. */
  status?: 501 | 505;
  code?: 'not_implemented';
}

function malformationOf(req: IncomingMessage): Malformation | undefined {
  // Node parses any one-digit major version; HTTP/2 and later are never sent as a text request line.
  if (req.httpVersionMajor !== 1)
    return {
      problem: 'HTTP version not supported',
      message: `The request line says HTTP/${req.httpVersion.slice(0, 10)}; this server speaks HTTP/1.1 and HTTP/1.0.`,
      status: 505,
    };
  const hosts = req.rawHeaders.filter((value, index) => index % 2 === 0 && value.toLowerCase() === 'host').length;
  if (hosts > 1)
    return { problem: 'several Host headers', message: `The request has ${hosts} Host headers; send exactly one.` };
  if (hosts === 0 && req.httpVersion === '1.1')
    return { problem: 'no Host header', message: 'The request has no Host header; HTTP/1.1 requires exactly one.' };
  const transferCodings = String(req.headers['transfer-encoding'] ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  // Without `chunked` last nobody can tell where the body ends (RFC 9112, 6.3).
  if (transferCodings.length > 0 && transferCodings.at(-1) !== 'chunked')
    return {
      problem: 'chunked is not the last transfer coding',
      message: `The request's Transfer-Encoding must end with \`chunked\`, which says where the body ends; send the body with Content-Length, or with \`Transfer-Encoding: chunked\`.`,
    };
  // Node frames `gzip, chunked` as chunked and hands over the body still gzipped; a coding a
  // server does not implement is a 501 (RFC 9112, 6.1), and the body cannot be read.
  const codings = transferCodings.filter((coding) => coding !== 'chunked');
  if (codings.length > 0)
    return {
      problem: 'transfer coding not implemented',
      message: `The request's Transfer-Encoding has ${codings.map((coding) => `\`${coding.slice(0, 20)}\``).join(', ')}, which this server does not implement; send the body with Content-Length, or with \`Transfer-Encoding: chunked\` alone.`,
      status: 501,
      code: 'not_implemented',
    };
  const target = req.url ?? '';
  if (!target.startsWith('/') && !/^https?:\/\//i.test(target)) {
    return {
      problem: 'request target is not a path',
      message: `The request target must be a path starting with /; \`${target.slice(0, 50)}\` is not one.`,
    };
  }
  return undefined;
}

/**
 * The HTTP adapter's error handler: a request it cannot turn into a URL (a backslash in the path,
 * an invalid `Host`) is the client's mistake, anything else an unexpected failure, never shown.
 */
export function answerAdapterErrors(logger: Logger): (error: unknown) => Response {
  return (error) => {
    if (error instanceof RequestError) {
      logger.info({ status: 400, code: 'validation_failed', problem: error.message });
      const message = `The request target or Host header cannot be read (${error.message.toLowerCase()}); correct it and send the request again.`;
      return refusalResponse({ status: 400, code: 'validation_failed', message });
    }
    logger.error({ error: error instanceof Error ? error.stack : String(error) });
    return refusalResponse({
      status: 500,
      code: 'internal_error',
      message: 'An unexpected error occurred; retry later, and report it if it persists.',
    });
  };
}
