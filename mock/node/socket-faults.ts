// The connection faults of the mock servers, done on the request's Node socket: `drop` closes it
// with no answer, `truncate` sends the headers and half of the body, then closes it.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionFaults } from '../app/app.ts';

/** The faults of the connection `env` (the Node server's bindings) carries; none without a socket. */
export function socketFaults(env: unknown): ConnectionFaults | undefined {
  const socket = (env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
  if (!socket) return undefined;
  return { drop: () => socket.destroy(), truncate: (response) => truncated(response, socket) };
}

/**
 * The response's headers, with the length of its whole body, and the first half of the body;
 * then the connection is closed, so the client sees the body end early.
 */
async function truncated(response: Response, socket: Socket): Promise<Response> {
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set('Content-Length', String(body.length));
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      // Called as soon as the half is taken, before the adapter writes it: end after the write.
      if (sent) return void setImmediate(() => socket.end());
      sent = true;
      controller.enqueue(body.subarray(0, Math.floor(body.length / 2)));
    },
  });
  return new Response(stream, { status: response.status, headers });
}
