import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defined } from '../../support/defined.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';
import { converse, requestHead } from '../../support/raw-http.ts';

let app: ListeningApp;

// The server's own timeouts: a refused body of megabytes must not run into a short one on a loaded machine.
beforeEach(async () => {
  app = await startListeningApp();
});

afterEach(async () => {
  await app.close();
});

const KIB = 1024;

function post(headers: [string, string | number][]): string {
  return requestHead('POST', '/v1/pets', [
    ['Host', 'localhost'],
    ['Authorization', `Bearer ${app.apiKey}`],
    ['Content-Type', 'application/json'],
    ...headers,
  ]);
}

function chunked(bytes: number): string {
  const chunk = 'a'.repeat(64 * KIB);
  return `${`${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(Math.ceil(bytes / chunk.length))}0\r\n\r\n`;
}

const NEXT_PET = JSON.stringify({ name: 'Pipelined', categoryId: 1 });

describe('a connection whose request body the server refuses unread', () => {
  it('drops a declared body of 256 KiB after the 413 and answers the next request sent on the same connection', async () => {
    const conversation = await converse(app.origin, [
      post([['Content-Length', 256 * KIB]]),
      Buffer.alloc(256 * KIB, 'a'),
      post([['Content-Length', NEXT_PET.length]]) + NEXT_PET,
    ]);

    expect(
      conversation.responses.map((response) => [response.status, response.headers.connection, response.complete]),
    ).toEqual([
      [413, 'keep-alive', true],
      [201, 'keep-alive', true],
    ]);
    const pipelined = defined(conversation.responses[1], 'the answer to the pipelined request');
    expect(JSON.parse(pipelined.body)).toMatchObject({ name: 'Pipelined' });
    expect(conversation.error).toBeUndefined();
  });

  it.each([
    [
      'a declared body over 1 MiB',
      [['Content-Length', 4096 * KIB]] as [string, number][],
      Buffer.alloc(4096 * KIB, 'a'),
    ],
    ['a chunked body of 2 MiB', [['Transfer-Encoding', 'chunked']] as [string, string][], chunked(2048 * KIB)],
  ])(
    'answers %s with a complete 413 and Connection: close, then ends the connection cleanly without running the next request',
    async (_case, headers, body) => {
      const conversation = await converse(
        app.origin,
        [post(headers), body, post([['Content-Length', NEXT_PET.length]]) + NEXT_PET],
        { endAfterMs: 5_000 },
      );

      expect(conversation.responses).toHaveLength(1);
      expect(conversation.responses[0]).toMatchObject({
        status: 413,
        complete: true,
        headers: { connection: 'close' },
      });
      const refusal = defined(conversation.responses[0], 'the refusal');
      expect(JSON.parse(refusal.body)).toMatchObject({ code: 'payload_too_large', status: 413 });
      expect(conversation.endedByServer).toBe(true);
      expect(conversation.error).toBeUndefined();
      expect((await app.service.storage.collections('pets').list({ limit: 10 })).items).toEqual([]);
    },
  );

  it('gives a client that stalls while its refused body is dropped no second answer when its request times out', async () => {
    await app.close();
    app = await startListeningApp({ requestTimeoutMs: 1_000, headersTimeoutMs: 500, timeoutCheckIntervalMs: 100 });
    const conversation = await converse(
      app.origin,
      [post([['Content-Length', 256 * KIB]]), Buffer.alloc(100 * KIB, 'a')],
      { endAfterMs: 3_000 },
    );

    expect(conversation.responses.map((response) => response.status)).toEqual([413]);
    expect(conversation.endedByServer).toBe(true);
  });
});
