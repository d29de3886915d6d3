import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it as base, describe } from 'vitest';
import { defined } from '../../support/defined.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

interface Servers {
  /** Starts the server on a database in this test's own folder (by default a folder it must create). */
  start(databasePath?: string, env?: Record<string, string>): Promise<ServerProcess>;
}

/** Each test has its folder and its processes, so the tests run at once. */
const it = base.extend<{ servers: Servers }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture depends on from this pattern.
  servers: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'animal-store-process-'));
    const running: ServerProcess[] = [];
    await use({
      async start(databasePath = join(dir, 'nested', 'store.db'), env = {}) {
        const server = await startServerProcess({ DATABASE_PATH: databasePath, ...env });
        running.push(server);
        return server;
      },
    });
    for (const server of running)
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  },
});

/** The key shown on stderr at the first start, never on stdout, the log's stream. */
function developmentKey(server: ServerProcess): string {
  const key = server
    .errors()
    .split('\n')
    .find((line) => line.startsWith('ask_'));
  if (!key) throw new Error(`No development key was shown:\n${server.errors()}`);
  return key;
}

// Each test starts Node processes of the server, which take seconds on a busy two-core machine.
describe('server/process/main.ts', { timeout: 60_000, concurrent: true }, () => {
  it('creates its database folder and prints a development key once when none exists', async ({ servers, expect }) => {
    const first = await servers.start();
    const key = developmentKey(first);
    expect(first.output()).toMatch(/free-plan key was created.*stderr/);
    expect(first.output()).not.toContain(key);
    const response = await fetch(`${first.baseUrl}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    first.child.kill('SIGTERM');
    await first.exited;

    const second = await servers.start();
    expect(second.output() + second.errors()).not.toMatch(/ask_/);
  });

  it('on a later start, when keys exist, says how to create one instead of creating one', async ({
    servers,
    expect,
  }) => {
    const first = await servers.start();
    developmentKey(first);
    first.child.kill('SIGTERM');
    await first.exited;

    const second = await servers.start();
    expect(second.output()).toMatch(/npm run keys -- create --plan free/);
    expect(second.output()).not.toMatch(/ask_|was created/);
  });

  it('keeps every pet it acknowledged with 201 when killed with SIGKILL, and serves them after a restart', async ({
    servers,
    expect,
  }) => {
    const first = await servers.start();
    const key = developmentKey(first);
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const acknowledged: unknown[] = [];
    for (let index = 0; index < 40; index += 1) {
      const response = await fetch(`${first.baseUrl}/v1/pets`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Pet ${index}`, categoryId: index + 1 }),
      });
      expect(response.status).toBe(201);
      acknowledged.push(await response.json());
    }
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = await servers.start();
    const listed = await fetch(`${second.baseUrl}/v1/pets?limit=100`, { headers });
    expect(await listed.json()).toEqual(acknowledged);
  });

  it.for(['SIGTERM', 'SIGINT'] as const)(
    'on %s finishes the request in flight, then exits 0',
    { timeout: 60_000 },
    async (signal, { servers, expect }) => {
      const server = await servers.start();
      const key = developmentKey(server);
      const body = JSON.stringify({ name: 'Slowpoke', categoryId: 1 });
      const url = new URL(`${server.baseUrl}/v1/pets`);
      const responded = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(
          url,
          {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${key}`,
              'Content-Type': 'application/json',
              'Content-Length': Buffer.byteLength(body),
            },
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          },
        );
        request.on('error', reject);
        // Half the body now, the rest after the signal: the request is in flight when it arrives.
        request.write(body.slice(0, 10));
        setTimeout(() => {
          server.child.kill(signal);
          setTimeout(() => request.end(body.slice(10)), 300);
        }, 300);
      });

      const response = await responded;
      expect(response.status).toBe(201);
      expect(JSON.parse(response.body)).toMatchObject({ name: 'Slowpoke' });
      expect(await server.exited).toEqual({ code: 0, signal: null });
    },
  );

  it('on SIGTERM fails /readyz at once, takes requests for SHUTDOWN_DELAY_MS, then stops listening and exits 0', async ({
    servers,
    expect,
  }) => {
    // A delay long enough that a loaded machine still sees the stopping server take requests.
    const server = await servers.start(undefined, { SHUTDOWN_DELAY_MS: '10000' });
    const key = developmentKey(server);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

    server.child.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${server.baseUrl}/readyz`)).status).toBe(503);

    const readiness = await fetch(`${server.baseUrl}/readyz`);
    expect(await readiness.json()).toMatchObject({ status: 'stopping' });
    expect(readiness.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect((await fetch(`${server.baseUrl}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
  });

  it('logs one line per request, every one of them written before it exits', async ({ servers, expect }) => {
    const server = await servers.start(undefined, { LOG_LEVEL: 'info' });
    const key = developmentKey(server);
    const answered: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      // Answered concurrently, so several lines share a turn of the event loop and one write.
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${server.baseUrl}/v1/pets?limit=1`, { headers: { Authorization: `Bearer ${key}` } }),
        ),
      );
      for (const response of responses) {
        expect(response.status).toBe(200);
        answered.push(defined(response.headers.get('X-Request-Id'), 'an X-Request-Id header'));
      }
    }
    server.child.kill('SIGTERM');
    await server.exited;

    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"requestId"'));
    const logged = lines.map((line) => JSON.parse(line) as { requestId: string; path: string; status: number });
    expect(logged.map((entry) => entry.requestId).sort()).toEqual([...answered].sort());
    expect(logged.every((entry) => entry.path === '/v1/pets' && entry.status === 200)).toBe(true);
    expect(server.output().indexOf('SIGTERM received')).toBeGreaterThan(server.output().lastIndexOf('"requestId"'));
  });
});
