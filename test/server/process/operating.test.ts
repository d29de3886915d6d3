// The server as an operator runs it: its metrics on a listener of their own, and a log of JSON
// lines from the start to the stop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defined } from '../../support/defined.ts';
import { parseExposition } from '../../support/metrics.ts';
import { converse } from '../../support/raw-http.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('npm start with METRICS_PORT', { timeout: 60_000 }, () => {
  let dir: string;
  let server: ServerProcess;
  let key: string;
  let metricsUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'animal-store-operating-'));
    server = await startServerProcess({ DATABASE_PATH: join(dir, 'store.db'), METRICS_PORT: '0', LOG_LEVEL: 'info' });
    key = defined(
      server
        .errors()
        .split('\n')
        .find((line) => line.startsWith('ask_')),
      'the development key on stderr',
    );
    const started = server
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { event?: string; metrics?: string })
      .find((line) => line.event === 'started');
    metricsUrl = defined(started?.metrics, 'the metrics listener’s address in the start-up line');
  });
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the Prometheus exposition on its own listener, counting the API’s answers', async () => {
    const answer = await fetch(`${server.baseUrl}/v1/pets?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
    const scraped = await fetch(metricsUrl);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('Content-Type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const exposition = parseExposition(await scraped.text());
    const labels = { method: 'GET', route: '/pets', operation: 'listPets', status: '200' };
    expect(exposition.histogram('http_server_request_duration_seconds', labels).count).toBe(1);
    expect(exposition.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await fetch(new URL('/v1/pets', metricsUrl))).status).toBe(404);
  });

  it('counts the requests the HTTP layer refuses before the app, by status', async () => {
    const malformed = await converse(server.baseUrl, ['GET /v1/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n']);
    expect(malformed.responses[0]?.status).toBe(400);
    const exposition = parseExposition(await (await fetch(metricsUrl)).text());
    expect(exposition.value('animal_store_http_refusals_total', { status: '400' })).toBe(1);
  });

  it('does not serve /metrics on the API’s listener, where it is an unknown path like any other', async () => {
    const withKey = await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${key}` } });
    expect(withKey.status).toBe(404);
    expect(await withKey.json()).toMatchObject({ code: 'not_found' });
  });

  it('logs each request with its key’s id, the client address and the trace it continues', async () => {
    await fetch(`${server.baseUrl}/v1/pets/1`, {
      headers: { Authorization: `Bearer ${key}`, traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
    });
    await expect.poll(() => server.output()).toContain(TRACE_ID);
    const line = JSON.parse(
      defined(
        server
          .output()
          .split('\n')
          .find((text) => text.includes(TRACE_ID)),
        'the line',
      ),
    );
    expect(line).toMatchObject({ path: '/v1/pets/1', trace_id: TRACE_ID, keyId: 1, clientAddress: '127.0.0.1' });
    expect(JSON.stringify(line)).not.toContain(key);
  });

  it('writes only JSON lines on stdout, the last saying that the server stopped and why', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const lines = server.output().split('\n').filter(Boolean);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.at(-1)).toMatchObject({ event: 'stopped', reason: 'SIGTERM received', level: 'info' });
    expect(parsed.map((line) => line.event)).toEqual(expect.arrayContaining(['started', 'stopping', 'stopped']));
    expect(server.output()).not.toContain(key);
  });
});
