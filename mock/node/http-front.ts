// A small HTTP server that reads each request whole (up to a limit), lets a handler decide the
// answer, and writes it; plus the client the handlers use to pass a request on unchanged. Headers
// and bodies cross it as they are, except the hop-by-hop headers that belong to one connection.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  /** Path and query, as received. */
  url: string;
  /** Lower-case names, as Node parses them. */
  headers: http.IncomingHttpHeaders;
  /** Empty when the body was over the front's `maxBodyBytes`. */
  body: Buffer;
  /** The body was over the front's `maxBodyBytes`: none of it was kept. */
  bodyOverLimit?: boolean;
}

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export interface Front {
  /** e.g. `http://127.0.0.1:4010` */
  origin: string;
  close(): Promise<void>;
}

export interface FrontOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * The most body bytes kept for `handle` (no limit by default). A larger body is not kept: reading
   * stops there, and the rest is read and dropped once the answer is sent.
   */
  maxBodyBytes?: number;
  handle(exchange: Exchange): Promise<Answer>;
  /** The answer when `handle` throws (the back end is down, say). */
  fail(error: unknown, exchange: Exchange): Answer;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'host',
  // Recomputed from the body actually sent.
  'content-length',
]);

export async function startFront(options: FrontOptions): Promise<Front> {
  const { maxBodyBytes = Infinity } = options;
  const server = http.createServer((request, response) => {
    void (async () => {
      const body = await readBody(request, maxBodyBytes);
      const exchange: Exchange = {
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: body ?? Buffer.alloc(0),
        ...(body === undefined && { bodyOverLimit: true }),
      };
      let answer: Answer;
      try {
        answer = await options.handle(exchange);
      } catch (error) {
        answer = options.fail(error, exchange);
      }
      response.writeHead(answer.status, { ...endToEnd(answer.headers), 'content-length': String(answer.body.length) });
      // Node leaves the body out of a HEAD response by itself.
      response.end(answer.body);
      // Reading the rest only to drop it keeps the connection usable, where closing it with the
      // client's bytes unread could reset it before the client has read the answer.
      if (exchange.bodyOverLimit) response.once('finish', () => request.resume());
    })().catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  // Node drops the headers past the 2,000th; a front passes every header on, as it was sent.
  server.maxHeadersCount = 0;
  server.listen(options.port, options.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    origin: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const STALE = Symbol('stale connection');

/** Sends requests on to other servers over kept-alive connections. */
export class Forwarder {
  readonly #agent = new http.Agent({ keepAlive: true });

  async send(origin: string, exchange: Exchange): Promise<Answer> {
    const first = await this.#sendOnce(origin, exchange);
    if (first !== STALE) return first;
    // A kept-alive connection the other side closed just as it was reused: the request never
    // arrived, so sending it again on a new connection is safe (as browsers do).
    const again = await this.#sendOnce(origin, exchange);
    if (again === STALE) throw new Error(`${origin} closed the connection before answering, twice.`);
    return again;
  }

  /** The answer, or STALE when a kept-alive connection turned out closed as it was reused. */
  #sendOnce(origin: string, exchange: Exchange): Promise<Answer | typeof STALE> {
    return new Promise((resolve, reject) => {
      const hadBody =
        exchange.body.length > 0 || 'content-length' in exchange.headers || 'transfer-encoding' in exchange.headers;
      const headers = {
        ...endToEnd(exchange.headers),
        ...(hadBody && { 'content-length': String(exchange.body.length) }),
      };
      const request = http.request(
        new URL(exchange.url, origin),
        { method: exchange.method, headers, agent: this.#agent },
        (response) => {
          readAll(response).then(
            (body) =>
              resolve({ status: response.statusCode ?? 502, headers: withoutUndefined(response.headers), body }),
            reject,
          );
        },
      );
      request.once('error', (error: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
        if (stale) resolve(STALE);
        else reject(error);
      });
      request.end(exchange.body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

function endToEnd(
  headers: http.IncomingHttpHeaders | Record<string, string | string[]>,
): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(withoutUndefined(headers)).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
  );
}

function withoutUndefined(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
  );
}

/**
 * The body, counted as it arrives; undefined once it is known to be over `limit` bytes (from its
 * `Content-Length`, or by counting), and then the request is left paused, so that the rest waits
 * on the connection rather than in memory.
 */
function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length']) > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      request.pause().off('data', collect);
      resolve(undefined);
    };
    request
      .on('data', collect)
      .once('end', () => resolve(Buffer.concat(chunks)))
      .once('error', reject);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}
