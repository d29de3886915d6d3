import diagnostics from 'node:diagnostics_channel';
import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { errors } from '../../core/errors.ts';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { HTTP_LIMITS } from '../../node/http/create-server.ts';
import { type RealServer, startRealServer } from '../support/conformance/real-server.ts';
import { AUTHORIZED, expectContractError } from '../support/mock.ts';

/** The largest body the contract lets any operation take, and the 413's message for one over it. */
const MAX_BODY_BYTES = loadContract().largestBodyBytes;
const PAYLOAD_TOO_LARGE_MESSAGE = errors.payloadTooLarge().message;
const JSON_TYPE = 'application/json';
const NEW_PET = '{"name":"Rex","categoryId":3}';

interface Reply {
  status: number;
  text: string;
}

/** Sent with Node's own client, so that the framing is exactly the one asked for: without a `Content-Length` header, chunked. */
function send(url: string, options: http.RequestOptions, body: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, options, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.once('error', reject);
    // Written before `end`, which would otherwise add a Content-Length of its own.
    request.write(body);
    request.end();
  });
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock?.close();
});

const BODY_BYTES = 8 * 1024 * 1024;
/** Node takes at most this much off a connection in one read. */
const SOCKET_READ_BYTES = 64 * 1024;
const JSON_HEADERS = { ...AUTHORIZED, 'Content-Type': JSON_TYPE };

interface AnswerSent {
  socket: Socket;
  /** What the mock had read from the connection when its answer was sent. */
  bytesRead: number;
}

/** `size` bytes of JSON whitespace, produced only as the connection takes them. */
function streamedBody(size: number): ReadableStream<Uint8Array> {
  let produced = 0;
  return new ReadableStream({
    pull(controller) {
      if (produced >= size) return controller.close();
      const chunk = new Uint8Array(Math.min(SOCKET_READ_BYTES, size - produced)).fill(0x20);
      produced += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

describe("startMock's request body limit", () => {
  let answers: Map<string, AnswerSent>;
  const recordAnswer = (message: unknown) => {
    const { request, socket } = message as { request: http.IncomingMessage; socket: Socket };
    if (socket.localPort === Number(new URL(mock.url).port))
      answers.set(request.url ?? '', { socket, bytesRead: socket.bytesRead });
  };
  beforeAll(() => {
    diagnostics.subscribe('http.server.response.finish', recordAnswer);
  });
  afterAll(() => {
    diagnostics.unsubscribe('http.server.response.finish', recordAnswer);
  });
  beforeEach(() => {
    answers = new Map();
  });

  it.each<[string, () => RequestInit['body']]>([
    ['chunked, without Content-Length', () => streamedBody(BODY_BYTES)],
    ['with Content-Length', () => new Uint8Array(BODY_BYTES).fill(0x20)],
  ])(
    'answers an 8 MiB body sent %s with 413 after reading at most the limit and two socket reads of it',
    async (_framing, body) => {
      const response = await fetch(`${mock.url}/v1/pets`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: body(),
        duplex: 'half',
      });

      const { message } = await expectContractError(response, 413, 'payload_too_large');
      expect(message).toBe(PAYLOAD_TOO_LARGE_MESSAGE);
      expect(answers.get('/v1/pets')?.bytesRead).toBeLessThanOrEqual(MAX_BODY_BYTES + 2 * SOCKET_READ_BYTES);
    },
  );

  it('reads the rest of a refused body within the drain limit after answering, so the connection serves its next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const size = HTTP_LIMITS.drainLimitBytes / 2;
      const refused = await send(
        `${mock.url}/v1/pets?refused`,
        { method: 'POST', headers: { ...JSON_HEADERS, 'Content-Length': String(size) }, agent },
        Buffer.alloc(size, 0x20),
      );
      const next = await send(`${mock.url}/v1/pets?next`, { method: 'POST', headers: JSON_HEADERS, agent }, NEW_PET);

      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'payload_too_large' });
      expect(next.status).toBe(201);
      expect(answers.get('/v1/pets?next')?.socket).toBe(answers.get('/v1/pets?refused')?.socket);
    } finally {
      agent.destroy();
    }
  });
});

interface BodyCase {
  method?: string;
  path?: string;
  contentType?: string;
  body: string | Buffer;
  framing?: 'content-length' | 'chunked';
}

/** What the two must agree on: the status and, for an error, its code and message. */
interface Outcome {
  status: number;
  code?: string;
  message?: string;
}

const OVER_LIMIT = NEW_PET + ' '.repeat(MAX_BODY_BYTES);
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

const CASES: Array<[string, BodyCase]> = [
  ['an empty body', { contentType: JSON_TYPE, body: '' }],
  ['a body of whitespace only', { contentType: JSON_TYPE, body: ' \n\t ' }],
  ['truncated JSON', { contentType: JSON_TYPE, body: '{"name": "Rex",' }],
  [
    'bytes that are not UTF-8',
    {
      contentType: JSON_TYPE,
      body: Buffer.from([...Buffer.from('{"name":"R'), 0xff, ...Buffer.from('x","categoryId":3}')]),
    },
  ],
  ['a Content-Type that is not JSON', { contentType: 'text/plain', body: NEW_PET }],
  ['no Content-Type', { body: NEW_PET }],
  ['a charset other than UTF-8', { contentType: `${JSON_TYPE}; charset=iso-8859-1`, body: NEW_PET }],
  ['a charset of UTF-8', { contentType: `${JSON_TYPE}; charset=utf-8`, body: NEW_PET }],
  [
    'a UTF-8 byte order mark before the JSON',
    { contentType: JSON_TYPE, body: Buffer.concat([BYTE_ORDER_MARK, Buffer.from(NEW_PET)]) },
  ],
  ['a body over 16 KiB with Content-Length', { contentType: JSON_TYPE, body: OVER_LIMIT }],
  ['a body over 16 KiB, chunked', { contentType: JSON_TYPE, body: OVER_LIMIT, framing: 'chunked' }],
  [
    'a body over 16 KiB that is not JSON either',
    { contentType: JSON_TYPE, body: `{${OVER_LIMIT}`, framing: 'chunked' },
  ],
  ['a body over 16 KiB of another Content-Type', { contentType: 'text/plain', body: OVER_LIMIT, framing: 'chunked' }],
  ['an empty body of another Content-Type', { contentType: 'text/plain', body: '' }],
  [
    'truncated JSON to a path the contract lacks',
    { path: '/v1/nothing-here', contentType: JSON_TYPE, body: '{"name":' },
  ],
  [
    'truncated JSON with a method the path does not support',
    { method: 'PUT', path: '/v1/pets/42', contentType: JSON_TYPE, body: '{"name":' },
  ],
  ['truncated JSON to an operation that takes no body', { method: 'GET', contentType: JSON_TYPE, body: '{"name":' }],
];

async function outcomeOf(origin: string, authorization: string, bodyCase: BodyCase): Promise<Outcome> {
  const { method = 'POST', path = '/v1/pets', contentType, body, framing = 'content-length' } = bodyCase;
  const headers = {
    Authorization: authorization,
    ...(contentType !== undefined && { 'Content-Type': contentType }),
    ...(framing === 'content-length' && { 'Content-Length': String(Buffer.byteLength(body)) }),
  };
  const { status, text } = await send(`${origin}${path}`, { method, headers }, body);
  if (status < 400) return { status };
  const { code, message } = JSON.parse(text) as Outcome;
  return { status, code, message };
}

describe('startMock and the server on request bodies they refuse before validation', () => {
  let server: RealServer;
  beforeAll(async () => {
    server = await startRealServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(CASES)('answer %s with the same status, code and message', async (_case, bodyCase) => {
    const fromServer = await outcomeOf(server.origin, `Bearer ${server.apiKey}`, bodyCase);

    expect(await outcomeOf(mock.url, AUTHORIZED.Authorization, bodyCase)).toEqual(fromServer);
  });
});
