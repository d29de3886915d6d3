// Requests pipelined on one connection: every request the server runs is answered, in order, before
// the connection ends (as nginx does: each complete request, then the refusal of what follows), and
// a request pipelined behind one that ends the connection is never run, since it could not be answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock } from '../../../mock/node/server.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';
import { converse, type RawConversation, requestHead } from '../../support/raw-http.ts';

let app: ListeningApp;
beforeAll(async () => {
  app = await startListeningApp();
});
afterAll(async () => {
  await app.close();
});

function createPet(name: string, options: { version?: string; headers?: [string, string][] } = {}): string {
  const body = JSON.stringify({ name, categoryId: 1 });
  const head = requestHead('POST', '/v1/pets', [
    ['Host', 'localhost'],
    ['Authorization', `Bearer ${app.apiKey}`],
    ['Content-Type', 'application/json'],
    ['Content-Length', body.length],
    ...(options.headers ?? []),
  ]);
  return head.replace(' HTTP/1.1\r\n', ` HTTP/${options.version ?? '1.1'}\r\n`) + body;
}

const creates = (tag: string, count: number) =>
  Array.from({ length: count }, (_, index) => createPet(`${tag} ${index + 1}`)).join('');

/** The names of the pets stored whose name starts with `tag`, in the order of their ids. */
async function storedNames(tag: string): Promise<string[]> {
  const { items } = await app.service.storage.collections('pets').list({ limit: 100, filters: {} });
  return (items as unknown as { name: string }[]).map((pet) => pet.name).filter((name) => name.startsWith(`${tag} `));
}

const answeredNames = (conversation: RawConversation) =>
  conversation.responses
    .filter((response) => response.status === 201)
    .map((response) => JSON.parse(response.body).name);

/** Bytes Node's parser rejects, each a kind the server must refuse after answering what came before. */
const NOT_HTTP: [string, string][] = [
  ['an invalid method', 'G@RBAGE / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['bytes that are no request line', '\u0001\u0002\u0003 nonsense\r\n\r\n'],
  ['a space in a header name', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nBad Name: 1\r\n\r\n'],
  [
    'both Content-Length and Transfer-Encoding',
    'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  ['a NUL in the target', 'GET /\u0000 HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ['the version HTTP/9.9', 'GET /healthz HTTP/9.9\r\nHost: localhost\r\n\r\n'],
];

describe('POST /v1/pets pipelined ahead of bytes that are not HTTP', () => {
  it.each(NOT_HTTP)('answers each of five creates it ran, in order, then refuses %s', async (kind, garbage) => {
    const tag = `ahead of ${kind}`;
    const conversation = await converse(app.origin, [creates(tag, 5) + garbage]);

    expect(conversation.responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201, 400]);
    const names = Array.from({ length: 5 }, (_, index) => `${tag} ${index + 1}`);
    expect(answeredNames(conversation)).toEqual(names);
    expect(JSON.parse(conversation.responses.at(-1)?.body ?? '')).toMatchObject({ code: 'validation_failed' });
    expect(conversation.endedByServer).toBe(true);
    expect(await storedNames(tag)).toEqual(names);
  });

  it('answers ten pipelined GETs before the refusal', async () => {
    const get = requestHead('GET', '/v1/pets?limit=1', [
      ['Host', 'localhost'],
      ['Authorization', `Bearer ${app.apiKey}`],
    ]);
    const conversation = await converse(app.origin, [`${get.repeat(10)}G@RBAGE\r\n\r\n`]);

    expect(conversation.responses.map((response) => response.status)).toEqual([...Array(10).fill(200), 400]);
    expect(conversation.responses.slice(0, 10).every((response) => response.complete)).toBe(true);
  });
});

describe('requests pipelined behind one that ends the connection', () => {
  it.each([
    ['two Host headers', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: example.org\r\n\r\n', 400],
    ['a request line saying HTTP/2.0', 'GET /healthz HTTP/2.0\r\nHost: localhost\r\n\r\n', 505],
    ['an expectation other than 100-continue', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\n\r\n', 417],
    ['CONNECT', 'CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n', 400],
    ['Connection: close', 'close', 201],
    ['HTTP/1.0 without keep-alive', 'http/1.0', 201],
  ])('answers the creates ahead of %s and runs none behind it', async (kind, ending, status) => {
    const tag = `behind ${kind}`;
    const last =
      ending === 'close'
        ? createPet(`${tag} last`, { headers: [['Connection', 'close']] })
        : ending === 'http/1.0'
          ? createPet(`${tag} last`, { version: '1.0' })
          : ending;
    const conversation = await converse(app.origin, [creates(tag, 3) + last + createPet(`${tag} never run`)]);

    expect(conversation.responses.map((response) => response.status)).toEqual([201, 201, 201, status]);
    expect(conversation.endedByServer).toBe(true);
    const stored = await storedNames(tag);
    expect(stored).toEqual(answeredNames(conversation));
    expect(stored).not.toContain(`${tag} never run`);
  });
});

describe('the static mock, behind the same HTTP front', () => {
  it('answers five pipelined GETs before refusing the bytes after them', async () => {
    const mock = await startMock();
    try {
      const get = requestHead('GET', '/v1/pets', [
        ['Host', 'localhost'],
        ['Authorization', 'Bearer any'],
      ]);
      const conversation = await converse(mock.url, [`${get.repeat(5)}GET / HTTP/1.1\r\nBad Name: 1\r\n\r\n`]);

      expect(conversation.responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 400]);
    } finally {
      await mock.close();
    }
  });
});
