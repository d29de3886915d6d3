import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Logger } from '../../core/logger.ts';
import { answerClientErrors, refuseTunnels } from './client-errors.ts';
import { continueWhenBodyIsRead } from './expect-continue.ts';
import { trackAnswers } from './pipelining.ts';
import { answerAdapterErrors, refuseExpectations, refuseMalformedRequests } from './request-gate.ts';
import { unreadBodyResponse } from './unread-body.ts';

export interface HttpLimits {
  /** Request line and headers together; larger gets 431. */
  maxHeaderBytes: number;
  /** How long a request's line and headers may take to arrive; slower gets 408. */
  headersTimeoutMs: number;
  /** How long a whole request, body included, may take to arrive; slower gets 408. */
  requestTimeoutMs: number;
  /** How long an idle connection stays open for the client's next request. */
  keepAliveTimeoutMs: number;
  /** How often the two timeouts above are checked, so how late they may strike. */
  timeoutCheckIntervalMs: number;
  /** A body refused unread is read and dropped after the answer up to this declared length; a longer one closes the connection. */
  drainLimitBytes: number;
  /** How long a connection being closed keeps reading what the client still sends before it is dropped. */
  lingerMs: number;
}

export const HTTP_LIMITS: HttpLimits = {
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 20_000,
  // Bodies are at most 16 KiB; a client that needs longer than this is stalled or hostile.
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckIntervalMs: 1_000,
  drainLimitBytes: 1024 * 1024,
  lingerMs: 2_000,
};

/** The app's `fetch`, called by the HTTP adapter with Node's request and response as its environment. */
export type Fetch = Parameters<typeof getRequestListener>[0];

export interface HttpServerOptions {
  /** Where the HTTP layer logs what it refuses; the app logs the rest. */
  logger: Logger;
  /** Hears the status of each answer the HTTP layer gives itself, before the app (the server's metrics). */
  refused?: (status: number) => void;
  /** The largest body the app reads (`contract.largestBodyBytes`): a larger declared one gets no `100 Continue`. */
  maxBodyBytes: number;
  limits?: Partial<HttpLimits>;
}

/**
 * Node's HTTP server for the app, with what the app cannot do itself: limits and timeouts,
 * `Expect: 100-continue` held until the body is wanted, the Error body on the answers Node and
 * the HTTP adapter give on their own, and connections kept or closed honestly when a body goes
 * unread. Not yet listening.
 */
export function createHttpServer(
  fetch: Fetch,
  { logger: log, maxBodyBytes, limits: overrides, refused }: HttpServerOptions,
): Server {
  const limits = { ...HTTP_LIMITS, ...overrides };
  const logger = refused ? reportingRefusals(log, refused) : log;
  const adapter = getRequestListener(fetch, {
    // The adapter's own clean-up drops a connection half a second after an answer that left the
    // body unread, though it was answered `keep-alive`; unreadBodyResponse does it honestly.
    autoCleanupIncoming: false,
    errorHandler: answerAdapterErrors(logger),
  });
  const server = createServer(
    {
      ServerResponse: unreadBodyResponse(limits),
      // Checked by refuseMalformedRequests, which answers with the Error body.
      requireHostHeader: false,
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
    },
    refuseMalformedRequests(adapter, logger),
  );
  // Node keeps the first 2,000 headers and silently drops the rest, which could hide a `Host` or
  // the `X-Forwarded-For` a proxy appends; `maxHeaderBytes` already bounds how many can arrive.
  server.maxHeadersCount = 0;
  trackAnswers(server);
  continueWhenBodyIsRead(server, maxBodyBytes);
  refuseExpectations(server, logger);
  refuseTunnels(server, logger, limits.lingerMs);
  answerClientErrors(server, logger, limits);
  return server;
}

/**
 * The logger the HTTP layer writes to, telling `refused` of each of its answers: each is one info
 * line with its `status` (the README's What is logged), the only lines of this layer that have one.
 */
function reportingRefusals(logger: Logger, refused: (status: number) => void): Logger {
  return {
    ...logger,
    info(fields) {
      if (typeof fields.status === 'number') refused(fields.status);
      logger.info(fields);
    },
  };
}
