// A finding's curl line sends what the fuzzer sent: the same method, URL, headers and body bytes,
// pasted into a shell as it is printed, with the key read from FUZZ_KEY (never printed).
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Addressing, curlOf, type FuzzRequest, type KeyPlacement, send } from '../../fuzz/requests.ts';

const run = promisify(execFile);
const KEY = 'ask_secret-key_0123456789';

/** What reached the server: the headers a request chose itself (not a client's own), the URL and the body. */
interface Received {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
  body: string;
}

const CHOSEN = ['authorization', 'x-api-key', 'cookie', 'content-type', 'idempotency-key'];

let server: Server;
let received: Received[] = [];
let origin: string;
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: Object.fromEntries(CHOSEN.map((name) => [name, request.headers[name] as string | undefined])),
      body: Buffer.concat(chunks).toString(),
    });
    response.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const bearer: KeyPlacement = { in: 'header', name: 'Authorization', format: (key) => `Bearer ${key}` };
const inQuery: KeyPlacement = { in: 'query', name: 'api_key', format: (key) => key };
const inCookie: KeyPlacement = { in: 'cookie', name: 'session', format: (key) => key };

function request(overrides: Partial<FuzzRequest>): FuzzRequest {
  return {
    operationId: 'anything',
    method: 'POST',
    path: '/v1/things/it%27s',
    pathParams: { thing: "it's" },
    query: {},
    headers: {},
    credentials: 'key',
    origin: 'coverage',
    note: 'a request',
    ...overrides,
  };
}

describe('curlOf', () => {
  it.each<[string, KeyPlacement[], Partial<FuzzRequest>]>([
    [
      'a body with quotes, a dollar, a backslash and a new line',
      [bearer],
      { body: { text: `{"name":"it's $HOME \`id\` \\\\ \\n\n"}`, contentType: 'application/json' } },
    ],
    ['a body without a Content-Type', [bearer], { body: { text: '{"a":1}', contentType: undefined } }],
    ['a query with spaces and quotes', [bearer], { method: 'GET', query: { q: `a b'c"d`, limit: '5' } }],
    ['a garbled key', [bearer], { method: 'GET', credentials: 'garbled' }],
    ['no key', [bearer], { method: 'GET', credentials: 'none' }],
    ['a key in the query and in a cookie', [inQuery, inCookie], { method: 'GET', query: { page: '2' } }],
    ['a header parameter with a quote', [bearer], { headers: { 'Idempotency-Key': "it's-1" } }],
  ])('sends what the fuzzer sends, for %s', async (_case, placements, overrides) => {
    const addressing: Addressing = { origin, key: KEY, placements: new Map([['anything', placements]]) };
    const sent = request(overrides);
    const curl = curlOf(addressing, sent);
    expect(curl).not.toContain(KEY);

    received = [];
    await send(addressing, sent, 10_000);
    await run('sh', ['-c', curl], { env: { ...process.env, FUZZ_KEY: KEY } });
    const [byFuzzer, byCurl] = received;
    expect(byCurl).toEqual(byFuzzer);
  });
});
