import type { Duplex } from 'node:stream';

const closing = new WeakSet<Duplex>();

/** Whether the connection is being closed by `closeGently`: nothing more is read from it as a request. */
export function isClosing(socket: Duplex): boolean {
  return closing.has(socket);
}

/**
 * Ends a connection without resetting it. Closing a socket while the client's bytes are still
 * arriving makes the kernel answer with a reset, and a client busy sending (its body, a
 * pipelined request) can lose the answer it was sent. So: send FIN after the answer, keep
 * reading and dropping what arrives, and close when the client closes its side, or after
 * `lingerMs` at the latest.
 */
export function closeGently(socket: Duplex, lingerMs: number): void {
  if (closing.has(socket) || socket.destroyed) return;
  closing.add(socket);
  socket.end();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
}
