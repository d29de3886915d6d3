import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defined } from '../../support/defined.ts';
import { converse, requestHead } from '../../support/raw-http.ts';
import { type ServerProcess, startServerProcess } from '../../support/server-process.ts';

let dir: string;
let server: ServerProcess;
let key: string;
/** What the server wrote on stderr as it started: the development key. */
let shownAtStart: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'animal-store-aborts-'));
  server = await startServerProcess({ DATABASE_PATH: join(dir, 'store.db'), LOG_LEVEL: 'debug' });
  key = defined(
    server
      .errors()
      .split('\n')
      .find((line) => line.startsWith('ask_')),
    'the development key shown on stderr at the first start',
  );
  shownAtStart = server.errors();
});

afterAll(async () => {
  server.child.kill('SIGKILL');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
});

function postHead(framing: [string, string | number]): string {
  return requestHead('POST', '/v1/pets', [
    ['Host', 'localhost'],
    ['Authorization', `Bearer ${key}`],
    ['Content-Type', 'application/json'],
    framing,
  ]);
}

function logLines(): Record<string, unknown>[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The first log line after the first `skip` that matches, once the server has written it. */
async function logLine(
  skip: number,
  matches: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 3_000; waited += 50) {
    const line = logLines().slice(skip).find(matches);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No such log line:\n${server.output()}`);
}

// Each test starts Node processes of the server, which take seconds on a busy two-core machine.
describe('client aborts in the log of the server process', { timeout: 60_000 }, () => {
  it.each([
    ['disconnects in the middle of a declared body', ['Content-Length', 100], '{"name":', { abortAfterWriting: true }],
    [
      'disconnects in the middle of a chunked body',
      ['Transfer-Encoding', 'chunked'],
      '9\r\n{"name":',
      { abortAfterWriting: true },
    ],
    ['breaks the chunked framing', ['Transfer-Encoding', 'chunked'], 'zz\r\n{}\r\n0\r\n\r\n', {}],
  ] as const)(
    'logs a client that %s as a client abort at info, with status 499 and no stack',
    async (_case, framing, body, options) => {
      const before = logLines().length;
      await converse(server.baseUrl, [postHead([...framing]), body], {
        ...options,
        pauseBetweenPartsMs: 100,
        endAfterMs: 300,
      });

      const access = await logLine(before, (line) => line.path === '/v1/pets');
      expect(access).toMatchObject({ level: 'info', status: 499, event: 'client aborted' });
      const lines = logLines().slice(before);
      expect(lines.filter((line) => line.level !== 'info' && line.level !== 'debug')).toEqual([]);
      expect(server.output()).not.toMatch(/\n\s+at /);
      expect(server.errors()).toBe(shownAtStart);
    },
  );

  it('answers broken chunked framing with the Error body, logged at info', async () => {
    const conversation = await converse(
      server.baseUrl,
      [postHead(['Transfer-Encoding', 'chunked']), 'zz\r\n{}\r\n0\r\n\r\n'],
      { pauseBetweenPartsMs: 100 },
    );

    expect(conversation.responses).toHaveLength(1);
    const refusal = defined(conversation.responses[0], 'the refusal');
    expect(JSON.parse(refusal.body)).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(await logLine(0, (line) => line.problem === 'HPE_INVALID_CHUNK_SIZE')).toMatchObject({
      level: 'info',
      status: 400,
    });
  });
});
