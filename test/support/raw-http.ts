// HTTP/1.1 spoken byte by byte over a plain socket, for what fetch hides: pipelined requests,
// broken framing, `Expect: 100-continue`, interim answers and how the server ends a connection.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Whether the whole body its `Content-Length` announces arrived. */
  complete: boolean;
}

export interface RawConversation {
  /** Every answer received, interim ones (100 Continue) included, in order. */
  responses: RawResponse[];
  /** Whether the server ended the connection (FIN) before the client did. */
  endedByServer: boolean;
  /** The socket error the client saw, if any (a reset, a write to a closed connection). */
  error?: string;
}

export interface RawOptions {
  /** The client ends its side this long after writing, unless the server ended first. */
  endAfterMs?: number;
  /**
   * The client ends its side as soon as this many answers have arrived (their heads, and the
   * bodies their `Content-Length` announces but the last's): a wait for a condition, which a
   * loaded machine cannot cut short. `endAfterMs` then only bounds it, 10 s by default.
   */
  endAfterResponses?: number;
  /** Gaps between the parts written, to let the server act in between. */
  pauseBetweenPartsMs?: number;
  /** Destroys the socket after writing instead of waiting, as a client that goes away. */
  abortAfterWriting?: boolean;
}

/** Writes `parts` on one connection to `origin` and collects what comes back until it closes. */
export function converse(
  origin: string,
  parts: (string | Buffer)[],
  options: RawOptions = {},
): Promise<RawConversation> {
  const { port, hostname } = new URL(origin);
  const { endAfterResponses, pauseBetweenPartsMs = 0, abortAfterWriting = false } = options;
  const endAfterMs = options.endAfterMs ?? (endAfterResponses === undefined ? 1_000 : 10_000);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let endedByServer = false;
    let error: string | undefined;
    socket.on('data', (chunk) => {
      received.push(chunk);
      if (endAfterResponses !== undefined && parseResponses(Buffer.concat(received)).length >= endAfterResponses)
        socket.end();
    });
    socket.on('end', () => (endedByServer = true));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    socket.on('close', () => resolve({ responses: parseResponses(Buffer.concat(received)), endedByServer, error }));
    void (async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0 && pauseBetweenPartsMs > 0) await new Promise((wait) => setTimeout(wait, pauseBetweenPartsMs));
        if (socket.destroyed) return;
        socket.write(part);
      }
      if (abortAfterWriting) socket.destroy();
      else setTimeout(() => socket.end(), endAfterMs);
    })();
  });
}

/** Splits a byte stream into the HTTP/1.1 answers it holds; bodies are delimited by `Content-Length`. */
function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine = '', ...headerLines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length);
    responses.push({ status, headers, body: body.toString('utf8'), complete: body.length === length });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return responses;
}

/** A request head; `headers` are written in order, repeated names included. */
export function requestHead(method: string, target: string, headers: [string, string | number][]): string {
  return `${method} ${target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}
