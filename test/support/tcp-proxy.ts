// A TCP proxy between the service and PostgreSQL that a test can cut, stall and restore, to show
// what requests get while the database is unreachable and that the service recovers by itself.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The port the proxy listens on, on 127.0.0.1. */
  readonly port: number;
  /** Refuses new connections (nothing listens) and resets the open ones, as a stopped database server does. */
  refuse(): Promise<void>;
  /** Keeps connections open but carries nothing, either way, as a network that drops every packet does. */
  stall(): void;
  /** Carries connections to the target again, those held while stalled included. */
  forward(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** Piped both ways: piping again would carry every byte twice. */
  linked: boolean;
  watcher?: ConnectionWatcher;
}

/** Sees the bytes of one connection as they pass, each way: to count a protocol's messages. */
export interface ConnectionWatcher {
  fromClient?(chunk: Buffer): void;
  fromServer?(chunk: Buffer): void;
}

export interface TcpProxyOptions {
  /** Called for each new connection; what it returns sees the connection's bytes. */
  watch?: () => ConnectionWatcher;
}

export async function startTcpProxy(
  target: { host: string; port: number },
  { watch }: TcpProxyOptions = {},
): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let stalled = false;

  const link = (pair: Pair) => {
    if (pair.linked) return;
    pair.linked = true;
    let { upstream } = pair;
    if (upstream === undefined) {
      upstream = connect(target.port, target.host);
      pair.upstream = upstream;
      const fromServer = pair.watcher?.fromServer;
      if (fromServer) upstream.on('data', (chunk: Buffer) => fromServer(chunk));
      const end = () => {
        pair.client.destroy();
        upstream?.destroy();
        pairs.delete(pair);
      };
      upstream.once('error', end).once('close', end);
    }
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
  };
  const unlink = (pair: Pair) => {
    const { client, upstream } = pair;
    pair.linked = false;
    client.unpipe();
    upstream?.unpipe();
    client.pause();
    upstream?.pause();
  };

  const onConnection = (client: Socket) => {
    const pair: Pair = { client, linked: false, watcher: watch?.() };
    pairs.add(pair);
    const fromClient = pair.watcher?.fromClient;
    if (fromClient) client.on('data', (chunk: Buffer) => fromClient(chunk));
    client
      .once('error', () => client.destroy())
      .once('close', () => {
        pair.upstream?.destroy();
        pairs.delete(pair);
      });
    if (stalled) client.pause();
    else link(pair);
  };

  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const resetAll = () => {
    for (const { client, upstream } of pairs) {
      client.resetAndDestroy();
      upstream?.destroy();
    }
    pairs.clear();
  };

  await listen(0);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The proxy listens on no TCP port.');
  const { port } = address;

  return {
    port,
    async refuse() {
      stalled = false;
      const closed = stopListening();
      resetAll();
      await closed;
    },
    stall() {
      stalled = true;
      for (const pair of pairs) unlink(pair);
    },
    async forward() {
      if (!server.listening) {
        server = createServer(onConnection);
        await listen(port);
      }
      stalled = false;
      for (const pair of pairs) link(pair);
    },
    async close() {
      const closed = server.listening ? stopListening() : Promise.resolve();
      resetAll();
      await closed;
    },
  };
}
