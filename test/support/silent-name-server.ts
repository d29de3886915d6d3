// A DNS server that takes every query and never answers: what a resolver meets when a name's
// servers are down or drop its packets.
import { createSocket } from 'node:dgram';
import { once } from 'node:events';

export interface SilentNameServer {
  /** `127.0.0.1:port`, as a resolver's `setServers` takes it. */
  address: string;
  /** How many queries have arrived. */
  queries(): number;
  close(): Promise<void>;
}

export async function startSilentNameServer(): Promise<SilentNameServer> {
  const socket = createSocket('udp4');
  let queries = 0;
  socket.on('message', () => {
    queries++;
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries: () => queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
