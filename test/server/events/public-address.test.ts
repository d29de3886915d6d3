// The resolver webhook targets' names go through: c-ares on the event loop with a time limit, so
// names whose servers never answer hold neither a request past the limit nor a thread of libuv's
// pool, which the file system, zlib and crypto share.
import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { hostResolver, ResolveTimeout } from '../../../server/events/public-address.ts';
import { type SilentNameServer, startSilentNameServer } from '../../support/silent-name-server.ts';

const servers: SilentNameServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function silentResolver(timeoutMs: number) {
  const server = await startSilentNameServer();
  servers.push(server);
  return { server, resolve: hostResolver({ servers: [server.address], timeoutMs }) };
}

describe('hostResolver', () => {
  it('rejects with ResolveTimeout naming the host when its servers never answer', async () => {
    const { server, resolve } = await silentResolver(200);
    const error = await resolve('hooks.example.test').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResolveTimeout);
    expect((error as Error).message).toBe('hooks.example.test did not resolve within 200 ms');
    expect(server.queries()).toBeGreaterThan(0);
  });

  it("leaves libuv's thread pool free while more names wait than it has threads", async () => {
    const { resolve } = await silentResolver(3_000);
    const waiting = Array.from({ length: 8 }, (_, index) => resolve(`slow-${index}.example.test`));
    let settled = 0;
    for (const lookup of waiting) lookup.catch(() => {}).finally(() => settled++);
    // pbkdf2 runs on the pool: it would queue behind eight getaddrinfo calls on four threads.
    await promisify(pbkdf2)('secret', 'salt', 1, 32, 'sha256');
    expect(settled).toBe(0);
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.map(({ status }) => status)).toEqual(waiting.map(() => 'rejected'));
  });

  it.each(['localhost', 'api.localhost', 'LOCALHOST.'])(
    'resolves %s to loopback without asking a server',
    async (host) => {
      const { server, resolve } = await silentResolver(200);
      expect(await resolve(host)).toEqual(['127.0.0.1', '::1']);
      expect(server.queries()).toBe(0);
    },
  );
});
