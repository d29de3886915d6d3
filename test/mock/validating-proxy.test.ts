import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningMock } from '../../mock/node/server.ts';
import { proxyViolations, startValidatingProxy } from '../../mock/node/validating-proxy.ts';
import { defined } from '../support/defined.ts';
import { exampleValue, headerExample, RATE_LIMIT_HEADERS } from '../support/mock.ts';
import { type ServerProcess, startServerProcess } from '../support/server-process.ts';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const RATE_LIMITS = Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, headerExample(name)]));
const CONFORMING_LIST: Reply = {
  status: 200,
  headers: { 'Content-Type': 'application/json', ...RATE_LIMITS },
  body: JSON.stringify(exampleValue('PetsFirstPage')),
};

/** A stand-in for the server that answers whatever a test tells it to, and records what it got. */
describe('startValidatingProxy', () => {
  let upstream: http.Server;
  let proxy: RunningMock;
  let reply: Reply;
  let received: Received[];
  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        response.writeHead(reply.status, reply.headers).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startValidatingProxy({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    await proxy?.close();
    upstream?.close();
  });
  beforeEach(() => {
    received = [];
    reply = CONFORMING_LIST;
  });

  it('passes an answer that conforms to the contract through unchanged, with no violations', async () => {
    const response = await fetch(`${proxy.url}/v1/pets`);

    expect(proxyViolations(response)).toEqual([]);
    expect(response.status).toBe(200);
    expect(response.headers.get('X-RateLimit-Limit')).toBe(RATE_LIMITS['X-RateLimit-Limit']);
    expect(await response.text()).toBe(CONFORMING_LIST.body);
  });

  it('hands the server the request exactly as sent: method, path, query, headers and body bytes', async () => {
    reply = {
      status: 201,
      headers: { 'Content-Type': 'application/json', Location: '/v1/pets/42', ...RATE_LIMITS },
      body: JSON.stringify(exampleValue('PetCreated')),
    };
    const body = '{ "name" : "Rex",\n  "categoryId": 3.0 }';

    const response = await fetch(`${proxy.url}/v1/pets?trace=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Custom': 'kept', Authorization: 'Bearer ask_some_key' },
      body,
    });

    expect(proxyViolations(response)).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/v1/pets?trace=1', body });
    expect(received[0]?.headers).toMatchObject({
      'x-custom': 'kept',
      authorization: 'Bearer ask_some_key',
      'content-type': 'application/json',
    });
  });

  it.each<[string, RequestInit & { body?: string }]>([
    ['a body that is not JSON', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":' }],
    ['no credentials', { method: 'GET' }],
    [
      'a body that is not JSON at all',
      { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'plain text' },
    ],
  ])('lets the server itself answer a request with %s', async (_case, init) => {
    reply = {
      status: 400,
      headers: { 'Content-Type': 'application/json', ...RATE_LIMITS },
      body: JSON.stringify(exampleValue('ErrorMalformedJson')),
    };

    const response = await fetch(`${proxy.url}/v1/pets`, init);

    expect(received).toHaveLength(1);
    expect(received[0]?.body).toBe(init.body ?? '');
    expect(proxyViolations(response)).toEqual([]);
    expect(response.status).toBe(400);
  });

  it('sends a request to no contract operation straight to the server', async () => {
    reply = {
      status: 404,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(exampleValue('ErrorNotFound')),
    };

    const response = await fetch(`${proxy.url}/v1/elsewhere`, { method: 'DELETE' });

    expect(received.map(({ method, url }) => `${method} ${url}`)).toEqual(['DELETE /v1/elsewhere']);
    expect(response.status).toBe(404);
  });

  it('turns an answer that breaks the contract into a 500 problem+json listing each violation', async () => {
    reply = { status: 200, headers: { 'Content-Type': 'application/json' }, body: '[{"id":"seven"}]' };

    const response = await fetch(`${proxy.url}/v1/pets`);
    const violations = proxyViolations(response);

    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(violations).toEqual(
      expect.arrayContaining(['body /0/id must be integer', 'header X-RateLimit-Limit is required but missing']),
    );
    const problem = (await response.json()) as { detail: string; upstream: { status: number; body: string } };
    expect(problem.detail).toContain('200 answer to GET /v1/pets');
    expect(problem.upstream).toMatchObject({ status: 200, body: reply.body });
  });

  it('also turns a status the operation does not declare into that 500, naming the statuses it declares', async () => {
    reply = {
      status: 404,
      headers: { 'Content-Type': 'application/json', ...RATE_LIMITS },
      body: JSON.stringify(exampleValue('ErrorNotFound')),
    };

    const response = await fetch(`${proxy.url}/v1/pets`);

    expect(response.status).toBe(500);
    expect(proxyViolations(response)).toEqual([
      expect.stringMatching(/^listPets declares no 404 response \(it declares 200, /),
    ]);
  });
});

describe('startValidatingProxy in front of the real server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  let proxy: RunningMock;
  let apiKey: string;
  beforeAll(async () => {
    server = await startServerProcess({ DATABASE_PATH: ':memory:' });
    apiKey = defined(/^(ask_\S+)$/m.exec(server.errors())?.[1], 'an API key (ask_…) shown on stderr');
    proxy = await startValidatingProxy({ upstream: server.baseUrl });
  });
  afterAll(async () => {
    await proxy?.close();
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  it('finds no violation in the answers to a create, a fetch, a listing and a refusal', async () => {
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${proxy.url}/v1/pets`, {
      method: 'POST',
      headers,
      body: JSON.stringify(exampleValue('NewPetWithStatus')),
    });
    const location = defined(created.headers.get('Location'), 'a Location header on the 201');
    const answers = [
      created,
      await fetch(proxy.url + location, { headers }),
      await fetch(`${proxy.url}/v1/pets?limit=1`, { headers }),
      await fetch(`${proxy.url}/v1/pets`),
      await fetch(`${proxy.url}/v1/pets/abc`, { headers }),
    ];

    expect(answers.map((answer) => [answer.status, proxyViolations(answer)])).toEqual([
      [201, []],
      [200, []],
      [200, []],
      [401, []],
      [400, []],
    ]);
  });
});
