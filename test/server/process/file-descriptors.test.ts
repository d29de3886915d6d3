// The server out of file descriptors: a flood of idle connections takes every descriptor the
// process may open. New connections are then refused (reset), never the process's death, the
// clients already connected keep being served (a commit needs no new descriptor), and once the
// flood goes the server takes connections again.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../../server/storage/sqlite/storage.ts';
import { compiledProgram } from '../../support/server-process.ts';

const MAIN = compiledProgram('process/main');
/** The process's descriptor limit: enough to start (tsx reads many files), far fewer than the flood. */
const DESCRIPTOR_LIMIT = 256;
const FLOOD = 400;

/** One request on `agent`'s connection; the status, or the error code when no answer came. */
function send(
  port: number,
  agent: http.Agent,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.request({ host: '127.0.0.1', port, agent, timeout: 10_000, ...options }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('timeout', () => request.destroy(new Error('timeout')));
    request.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    request.end(options.body);
  });
}

describe.skipIf(process.platform !== 'linux')(
  'the server with every file descriptor taken',
  { timeout: 120_000 },
  () => {
    let folder: string;
    let server: ChildProcess;
    let port: number;
    let apiKey: string;
    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'animal-store-descriptors-'));
      const databasePath = join(folder, 'store.db');
      const storage = openSqliteStorage(databasePath);
      apiKey = (await storage.keys.create({ plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 })).secret;
      await storage.close();
      // The shell lowers the limit, then becomes the server.
      server = spawn('bash', ['-c', `ulimit -n ${DESCRIPTOR_LIMIT} && exec "$@"`, 'bash', process.execPath, MAIN], {
        env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', DATABASE_PATH: databasePath },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      server.stdout?.on('data', (chunk: Buffer) => (output += chunk));
      server.stderr?.on('data', (chunk: Buffer) => (output += chunk));
      port = await new Promise<number>((resolve, reject) => {
        server.stdout?.on('data', () => {
          const found = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(output)?.[1];
          if (found) resolve(Number(found));
        });
        server.once('exit', (code) => reject(new Error(`The server exited with ${code} before listening:\n${output}`)));
      });
    }, 120_000);
    afterAll(async () => {
      if (server && server.exitCode === null && server.signalCode === null) {
        server.kill('SIGTERM');
        await once(server, 'exit');
      }
      rmSync(folder, { recursive: true, force: true });
    });

    it('refuses new connections while they are exhausted, serves those already open, and recovers once they are freed', async () => {
      const connected = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const create = (name: string) =>
        send(port, connected, {
          method: 'POST',
          path: '/v1/pets',
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name, categoryId: 1 }),
        });
      expect(await create('Before the flood')).toBe(201);

      const flood: Socket[] = Array.from({ length: FLOOD }, () => connect(port, '127.0.0.1').on('error', () => {}));
      try {
        await Promise.all(flood.map((socket) => once(socket, 'connect').catch(() => {})));
        // A new connection finds no descriptor left: the server resets it.
        await expect
          .poll(() => send(port, new http.Agent(), { path: '/healthz' }), { timeout: 30_000, interval: 200 })
          .not.toBe(200);

        expect(await create('During the flood')).toBe(201);
        expect(await send(port, connected, { path: '/readyz' })).toBe(200);
      } finally {
        for (const socket of flood) socket.destroy();
      }

      await expect
        .poll(() => send(port, new http.Agent(), { path: '/healthz' }), { timeout: 30_000, interval: 200 })
        .toBe(200);
      expect(server.exitCode).toBeNull();
      expect(await create('After the flood')).toBe(201);
      connected.destroy();
    });
  },
);
