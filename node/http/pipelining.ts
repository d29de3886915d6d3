// Requests pipelined on one connection: HTTP/1.1 lets a client send several before the first is
// answered, and Node runs each as soon as it is parsed, queueing its answer behind the earlier
// ones. So when the connection has to end (bytes that are not HTTP, a request that closes it), the
// requests already running must still be answered before it does, and a request that could no
// longer be answered must not be run.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

interface Connection {
  /** The exchanges whose answers are not yet written in full, in the order their requests arrived. */
  unanswered: Exchange[];
  /** The latest request received. */
  latest?: Exchange;
  /** Waiting for the answers to the requests received before `before` (all of them when undefined). */
  waiting: { before?: IncomingMessage; then: () => void }[];
  /** The request that ends the connection after its answer: nothing received after it is run. */
  last?: IncomingMessage;
}

const connections = new WeakMap<Duplex, Connection>();

function connectionOf(socket: Duplex): Connection {
  let connection = connections.get(socket);
  if (!connection) {
    connection = { unanswered: [], waiting: [] };
    connections.set(socket, connection);
  }
  return connection;
}

/**
 * Keeps, per connection, the requests whose answers are still to be written. First among the
 * server's listeners, so it sees every request before anything answers it (an expectation refused
 * with 417 included). A request that asks the connection to close after it (`Connection: close`,
 * HTTP/1.0 without keep-alive) is its last: whatever arrives behind it is not run.
 */
export function trackAnswers(server: Server): void {
  const track = (req: IncomingMessage, res: ServerResponse) => {
    // Never run (refuseMalformedRequests), so never answered: nothing waits for its answer.
    if (arrivedAfterLast(req)) return;
    const connection = connectionOf(req.socket);
    const exchange = { req, res };
    connection.unanswered.push(exchange);
    connection.latest = exchange;
    if (!res.shouldKeepAlive) connection.last ??= req;
    let done = false;
    // Node's own 'finish' listener, added before the request is emitted, has by then handed the
    // connection to the next answer.
    const answered = () => {
      if (done) return;
      done = true;
      connection.unanswered.splice(connection.unanswered.indexOf(exchange), 1);
      runWaiting(connection);
    };
    res.once('finish', answered);
    res.once('close', answered);
  };
  server.prependListener('request', track);
  server.prependListener('checkExpectation', track);
}

function runWaiting(connection: Connection): void {
  const ready = connection.waiting.filter(({ before }) => !answersAhead(connection, before));
  connection.waiting = connection.waiting.filter((waiter) => !ready.includes(waiter));
  for (const { then } of ready) then();
}

/** Whether an answer to a request received before `before` (any, when undefined) is still being written. */
function answersAhead(connection: Connection, before: IncomingMessage | undefined): boolean {
  const first = connection.unanswered[0];
  return first !== undefined && first.req !== before;
}

/**
 * Calls `then` once the answers to every request received on the connection before `before` (or
 * to every request, when undefined) have been written, or their connection lost: at once when
 * there are none.
 */
export function afterAnswersAhead(socket: Duplex, before: IncomingMessage | undefined, then: () => void): void {
  const connection = connectionOf(socket);
  if (socket.destroyed || !answersAhead(connection, before)) then();
  else connection.waiting.push({ before, then });
}

/** The request whose body was still arriving on the connection, if the latest one was incomplete. */
export function requestStillArriving(socket: Duplex): Exchange | undefined {
  const latest = connections.get(socket)?.latest;
  return latest && !latest.req.complete ? latest : undefined;
}

/** Makes `req` the last request run on its connection, which ends after its answer. */
export function endConnectionAfter(req: IncomingMessage): void {
  connectionOf(req.socket).last ??= req;
}

/** Whether `req` arrived behind a request that ends the connection, so that it could never be answered. */
export function arrivedAfterLast(req: IncomingMessage): boolean {
  const last = connections.get(req.socket)?.last;
  return last !== undefined && last !== req;
}
