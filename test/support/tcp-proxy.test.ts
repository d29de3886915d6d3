import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/** A target that answers each chunk it receives with the same bytes, and keeps all it received. */
async function startEcho() {
  let received = '';
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      received += chunk.toString();
      socket.write(chunk);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    received: () => received,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('startTcpProxy', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of cleanup.splice(0).reverse()) await close();
  });

  it('carries each byte once, either way, however often forward is called', async () => {
    const echo = await startEcho();
    cleanup.push(echo.close);
    const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port });
    cleanup.push(proxy.close);
    const client = connect(proxy.port, '127.0.0.1');
    cleanup.push(async () => void client.destroy());
    await once(client, 'connect');
    let answered = '';
    client.on('data', (chunk) => {
      answered += chunk.toString();
    });
    client.write('before;');
    await expect.poll(() => answered).toBe('before;');

    // A test's own forward and the one in its `finally` both run after a stall.
    proxy.stall();
    await proxy.forward();
    await proxy.forward();
    client.write('after;');
    // Bytes keep their order each way, so every copy of `after;` comes back before the first `end;`.
    client.write('end;');

    await expect.poll(() => answered.includes('end;')).toBe(true);
    expect(answered).toMatch(/^before;after;end;/);
    expect(echo.received()).toMatch(/^before;after;end;/);
  });
});
