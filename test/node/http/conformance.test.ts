import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import type { HttpLimits } from '../../../node/http/create-server.ts';
import { defined } from '../../support/defined.ts';
import { DOCUMENTED_ERROR_CODES } from '../../support/http.ts';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';
import { converse, type RawConversation, type RawResponse, requestHead } from '../../support/raw-http.ts';

const MAX_BODY_BYTES = loadContract().largestBodyBytes;

let app: ListeningApp | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function serve(limits: Partial<HttpLimits> = {}, options: { trustProxy?: boolean } = {}): Promise<ListeningApp> {
  app = await startListeningApp(limits, options);
  return app;
}

/** The one answer of a conversation: the contract's Error body, as JSON, and the connection closed after it. */
function expectClosingError(conversation: RawConversation, status: number, code: string): RawResponse {
  expect(conversation.responses.map((response) => response.status)).toEqual([status]);
  const [response] = conversation.responses as [RawResponse];
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toEqual({ code, message: expect.stringMatching(/\S\.$/), status });
  expect(DOCUMENTED_ERROR_CODES).toContain(code);
  expect(response.headers.connection).toBe('close');
  expect(conversation.endedByServer).toBe(true);
  return response;
}

describe('requests HTTP/1.1 says a server must refuse', () => {
  it.each([
    [
      'two Host headers',
      requestHead('GET', '/v1/pets', [
        ['Host', 'localhost'],
        ['Host', 'example.org'],
      ]),
      /2 Host headers/,
    ],
    ['no Host header', requestHead('GET', '/v1/pets', []), /no Host header/],
    ['OPTIONS *', requestHead('OPTIONS', '*', [['Host', 'localhost']]), /`\*`/],
  ])('answers %s with 400 and the Error body', async (_case, request, message) => {
    const { origin } = await serve();
    const response = expectClosingError(await converse(origin, [request]), 400, 'validation_failed');
    expect(JSON.parse(response.body).message).toMatch(message);
  });
});

describe('requests the server cannot serve as they are asked', () => {
  it.each([
    [
      'an expectation other than 100-continue',
      requestHead('GET', '/v1/pets', [
        ['Host', 'localhost'],
        ['Expect', 'foo'],
      ]),
      417,
      /Expect: foo/,
    ],
    [
      'CONNECT, which asks for a tunnel',
      requestHead('CONNECT', 'localhost:443', [['Host', 'localhost:443']]),
      400,
      /CONNECT/,
    ],
    ['a request line saying HTTP/2.0', 'GET /readyz HTTP/2.0\r\nHost: localhost\r\n\r\n', 505, /HTTP\/2\.0/],
  ])('answers %s with the Error body and closes the connection', async (_case, request, status, message) => {
    const { origin } = await serve();
    const response = expectClosingError(await converse(origin, [request]), status, 'validation_failed');
    expect(JSON.parse(response.body).message).toMatch(message);
  });
});

describe('a transfer coding the server does not implement', () => {
  it('answers Transfer-Encoding: gzip, chunked with 501 not_implemented naming gzip, stores nothing, and closes the connection', async () => {
    const { origin, apiKey, service } = await serve();
    const body = JSON.stringify({ name: 'Zipped', categoryId: 1 });
    const request = requestHead('POST', '/v1/pets', [
      ['Host', 'localhost'],
      ['Authorization', `Bearer ${apiKey}`],
      ['Content-Type', 'application/json'],
      ['Transfer-Encoding', 'gzip, chunked'],
    ]);
    const conversation = await converse(origin, [`${request}${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`]);

    const response = expectClosingError(conversation, 501, 'not_implemented');
    expect(JSON.parse(response.body).message).toMatch(/`gzip`/);
    const { items } = await service.storage.collections('pets').list({ limit: 10, filters: {} });
    expect(items).toEqual([]);
  });
});

describe('a Transfer-Encoding that does not end with chunked', () => {
  it.each(['gzip', 'identity'])(
    'answers Transfer-Encoding: %s with 400, since where the body ends cannot be told, and closes the connection',
    async (coding) => {
      const { origin, apiKey } = await serve();
      const request = requestHead('POST', '/v1/pets', [
        ['Host', 'localhost'],
        ['Authorization', `Bearer ${apiKey}`],
        ['Content-Type', 'application/json'],
        ['Transfer-Encoding', coding],
      ]);
      const response = expectClosingError(await converse(origin, [`${request}{}`]), 400, 'validation_failed');
      expect(JSON.parse(response.body).message).toMatch(/chunked/);
    },
  );
});

describe('HTTP/1.0 requests, which have no Host', () => {
  it.each([
    ['/readyz', 200, /"status":"ready"/],
    ['/healthz', 200, /"status":"alive"/],
  ])('answers GET %s as a load balancer health check sends it (HAProxy option httpchk)', async (path, status, body) => {
    const { origin } = await serve();
    const conversation = await converse(origin, [`GET ${path} HTTP/1.0\r\n\r\n`]);

    expect(conversation.responses.map((response) => response.status)).toEqual([status]);
    expect(defined(conversation.responses[0], 'the answer').body).toMatch(body);
  });

  it('serves the API to an HTTP/1.0 client that sends a key and no Host', async () => {
    const { origin, apiKey } = await serve();
    const conversation = await converse(origin, [`GET /v1/pets HTTP/1.0\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`]);

    expect(conversation.responses.map((response) => response.status)).toEqual([200]);
    expect(JSON.parse(defined(conversation.responses[0], 'the answer').body)).toEqual([]);
  });
});

describe('a request with more headers than Node keeps by default (2,000), within 16 KiB', () => {
  /** 2,100 short headers: about 10 KiB. */
  const FILLER: [string, string][] = Array.from({ length: 2_100 }, (_, index) => [`x${index}`, '1']);

  it('reads the Host that follows them', async () => {
    const { origin } = await serve();
    const conversation = await converse(origin, [requestHead('GET', '/healthz', [...FILLER, ['Host', 'localhost']])]);

    expect(conversation.responses.map((response) => response.status)).toEqual([200]);
  });

  it('counts the X-Forwarded-For entry a trusted proxy appended after them, not the one the client chose', async () => {
    const { origin } = await serve({}, { trustProxy: true });
    const remaining = async (headers: [string, string][]) => {
      const conversation = await converse(origin, [
        requestHead('GET', '/v1/pets', [['Host', 'localhost'], ...headers]),
      ]);
      const [answer] = conversation.responses;
      expect(answer?.status).toBe(401);
      return Number(answer?.headers['x-ratelimit-remaining']);
    };

    const first = await remaining([['X-Forwarded-For', '203.0.113.9'], ...FILLER, ['X-Forwarded-For', '198.51.100.7']]);
    const second = await remaining([['X-Forwarded-For', '198.51.100.7']]);
    expect(second).toBe(first - 1);
  });
});

describe('HEAD', () => {
  it.each([
    ['/v1/pets', true],
    ['/v1/pets/999999', true],
    ['/healthz', false],
    ['/openapi.json', false],
  ])('answers HEAD %s with the Content-Length of its GET, and no body', async (path, withKey) => {
    const { origin, apiKey } = await serve();
    const head = (method: string) =>
      requestHead(method, path, [
        ['Host', 'localhost'],
        ...(withKey ? [['Authorization', `Bearer ${apiKey}`] as [string, string]] : []),
      ]);
    const conversation = await converse(origin, [head('GET') + head('HEAD')], { endAfterResponses: 2 });

    const [get, answer] = conversation.responses as [RawResponse, RawResponse];
    expect(answer.status).toBe(get.status);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(get.body));
    expect(conversation.responses).toHaveLength(2);
    expect(answer.body).toBe('');
  });
});

describe('Expect: 100-continue', () => {
  it.each([
    ['an unknown key', 'Bearer ask_not_a_key', 10, 401, 'unauthorized'],
    ['a Content-Length over the limit', 'valid', MAX_BODY_BYTES + 1, 413, 'payload_too_large'],
  ])(
    'answers a request with %s finally, without inviting the body with 100 first',
    async (_case, authorization, length, status, code) => {
      const { origin, apiKey } = await serve();
      const head = requestHead('POST', '/v1/pets', [
        ['Host', 'localhost'],
        ['Authorization', authorization === 'valid' ? `Bearer ${apiKey}` : authorization],
        ['Content-Type', 'application/json'],
        ['Content-Length', length],
        ['Expect', '100-continue'],
      ]);
      const conversation = await converse(origin, [head]);
      expect(conversation.responses.map((response) => response.status)).toEqual([status]);
      const answer = defined(conversation.responses[0], 'an answer');
      expect(JSON.parse(answer.body)).toMatchObject({ code, status });
      // The client was told nothing about its body, so the connection cannot carry another request.
      expect(answer.headers.connection).toBe('close');
    },
  );

  it('sends 100 Continue once the request passed its checks, then answers the body', async () => {
    const { origin, apiKey } = await serve();
    const body = JSON.stringify({ name: 'Patient', categoryId: 1 });
    const head = requestHead('POST', '/v1/pets', [
      ['Host', 'localhost'],
      ['Authorization', `Bearer ${apiKey}`],
      ['Content-Type', 'application/json'],
      ['Content-Length', body.length],
      ['Expect', '100-continue'],
    ]);
    const conversation = await converse(origin, [head, body], { pauseBetweenPartsMs: 300, endAfterResponses: 2 });
    expect(conversation.responses.map((response) => response.status)).toEqual([100, 201]);
    expect(JSON.parse(defined(conversation.responses[1], 'a final answer').body)).toMatchObject({ name: 'Patient' });
  });
});

describe("Node's own refusals", () => {
  it.each([
    ['a request line that is not HTTP', 400, 'validation_failed', ['GARBAGE\r\n\r\n'], {}],
    [
      'broken chunked framing',
      400,
      'validation_failed',
      [
        `${requestHead('POST', '/v1/pets', [
          ['Host', 'localhost'],
          ['Transfer-Encoding', 'chunked'],
        ])}zz\r\n{}\r\n0\r\n\r\n`,
      ],
      {},
    ],
    [
      'headers over 16 KiB',
      431,
      'payload_too_large',
      [
        requestHead('GET', '/v1/pets', [
          ['Host', 'localhost'],
          ['X-Padding', 'a'.repeat(17 * 1024)],
        ]),
      ],
      {},
    ],
    [
      'headers that never end',
      408,
      'validation_failed',
      ['GET /v1/pets HTTP/1.1\r\nHost: localhost\r\n'],
      { headersTimeoutMs: 300, requestTimeoutMs: 400, timeoutCheckIntervalMs: 100 },
    ],
  ] as const)(
    'answers %s with %i and the Error body, then closes the connection',
    async (_case, status, code, parts, limits) => {
      const { origin } = await serve(limits);
      expectClosingError(await converse(origin, [...parts], { endAfterMs: 2_000 }), status, code);
    },
  );
});
