// Many clients downloading the docs page at once, against the server process: each answer shares
// the one prepared copy of the page, so memory does not grow with the number of downloads.
import { readFileSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDocs } from '../../../scripts/docs/ensure.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { DEFAULT_DOCS_FILES } from '../../../server/docs/routes.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

const CLIENTS = 100;

/** The resident memory of process `pid`, in bytes. */
function residentBytes(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) * 1024;
}

describe.skipIf(process.platform !== 'linux')('GET /docs/ by many clients at once', { timeout: 120_000 }, () => {
  let server: ServerProcess;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    const ensured = await ensureDocs(contractLocations(REPOSITORY_ROOT));
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
    server = await startServerProcess({ DATABASE_PATH: ':memory:', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    server?.child.kill('SIGKILL');
    await server?.exited;
  });

  it('holds no copy of the page per download, even for clients that read nothing', async () => {
    const pageBytes = statSync(path.join(DEFAULT_DOCS_FILES.dir, 'index.html')).size;
    const { port } = new URL(server.baseUrl);
    const pid = server.child.pid as number;
    // The first download prepares the page; what the others cost comes on top.
    expect((await fetch(`${server.baseUrl}/docs/`)).status).toBe(200);
    const before = residentBytes(pid);

    for (let client = 0; client < CLIENTS; client += 1) {
      const socket = connect(Number(port), '127.0.0.1');
      sockets.push(socket);
      // Never read: the answer stays queued in the server, as for a slow or hostile client.
      socket.pause();
      socket.write(`GET /docs/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\n\r\n`);
    }
    const answered = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"path":"/docs/"')).length;
    await expect.poll(answered, { timeout: 60_000 }).toBeGreaterThanOrEqual(CLIENTS + 1);

    // A copy per client would be CLIENTS pages; a shared buffer costs each client far less than a page.
    expect(residentBytes(pid) - before).toBeLessThan((CLIENTS * pageBytes) / 4);
  });
});
