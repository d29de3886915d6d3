// The mock's latency and faults: a delay for every answer or for one request, and the failures a
// frontend must survive (a 503, a dropped connection, a body cut off half-way), chosen by the
// query, by `Prefer` or by a scenario; and the project's client against them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnimalStoreClient, type FetchLike } from '../../client/index.ts';
import { loadContract } from '../../contract/bundled.ts';
import { DELAY_HEADER } from '../../mock/app/app.ts';
import { FAULTS, type Fault } from '../../mock/app/scenarios.ts';
import { loadScenarios, SCENARIOS_FILE } from '../../mock/node/scenarios-file.ts';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { defined } from '../support/defined.ts';
import { AUTHORIZED, exampleValue, expectContractError, headerExample } from '../support/mock.ts';

/** Node's timers may fire a millisecond early against performance.now(). */
const TIMER_SLACK_MS = 2;

/** The shipped scenarios, and one per fault the shipped file has no scenario for. */
const FAULT_SCENARIOS = `
dropping:
  description: Every connection is closed before an answer.
  fault: drop

truncating:
  description: Every body is cut off half-way.
  fault: truncate
`;

async function timed(send: () => Promise<Response>): Promise<{ status: number; headers: Headers; ms: number }> {
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  return { status: response.status, headers: response.headers, ms: performance.now() - started };
}

/** A GET through node:http: the status, the declared length and every byte that arrived before the connection ended. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status?: number; contentLength?: string; received: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      // An early end is reported as an error of the response; what arrived is the finding.
      response.on('error', () => {});
      response.on('close', () =>
        resolve({
          status: response.statusCode,
          contentLength: response.headers['content-length'],
          received: Buffer.concat(chunks),
          complete: response.complete,
        }),
      );
    });
    request.on('error', reject);
  });
}

describe('mock latency and faults', () => {
  let directory: string;
  /** No delay; the shipped scenarios plus `dropping` and `truncating`. */
  let mock: RunningMock;
  /** Started with a delay of 300 ms. */
  let delayed: RunningMock;
  /** The scenario that chooses each fault. */
  let scenarioWith: Record<Fault, string>;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'mock-faults-'));
    const scenariosFile = path.join(directory, 'scenarios.yaml');
    await writeFile(scenariosFile, (await readFile(SCENARIOS_FILE, 'utf8')) + FAULT_SCENARIOS);
    const scenarios = [...loadScenarios(loadContract(), scenariosFile).values()];
    scenarioWith = Object.fromEntries(
      FAULTS.map((fault) => [
        fault,
        defined(
          scenarios.find((scenario) => scenario.fault === fault),
          fault,
        ).name,
      ]),
    ) as Record<Fault, string>;
    [mock, delayed] = await Promise.all([
      startMock({ scenariosFile }),
      startMock({ delay: { minMs: 300, maxMs: 300 } }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([mock?.close(), delayed?.close()]);
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const request = (on: RunningMock, path: string, headers: Record<string, string> = {}) =>
    fetch(on.url + path, { headers: { ...AUTHORIZED, ...headers } });

  // The cases mostly wait out their delays, so they wait together.
  describe('delay', { concurrent: true }, () => {
    // Each answer says the delay the mock added; a loaded machine can only make it later, never earlier.
    const addedDelay = (answer: { headers: Headers }) => Number(answer.headers.get(DELAY_HEADER) ?? 0);

    it('adds 300 ms to every answer when started with delay 300', async () => {
      for (let round = 0; round < 5; round += 1) {
        const answer = await timed(() => request(delayed, '/v1/pets'));
        expect(answer.status).toBe(200);
        expect(addedDelay(answer)).toBe(300);
        expect(answer.ms).toBeGreaterThanOrEqual(300 - TIMER_SLACK_MS);
      }
    });

    it('adds no delay when started without one', async () => {
      const answer = await timed(() => request(mock, '/v1/pets'));
      expect(answer.status).toBe(200);
      expect(answer.headers.get(DELAY_HEADER)).toBeNull();
    });

    it.each<[string, string, Record<string, string>]>([
      ['?__delay=0', '/v1/pets?__delay=0', {}],
      ['Prefer: delay=0', '/v1/pets', { Prefer: 'delay=0' }],
    ])("lets a request's own delay (%s) win over the start's", async (_way, path, headers) => {
      const answer = await timed(() => request(delayed, path, headers));

      expect(answer.status).toBe(200);
      expect(addedDelay(answer)).toBe(0);
    });

    it.each<[string, string, Record<string, string>]>([
      ['?__delay=2000', '/v1/pets?__delay=2000', {}],
      ['Prefer: delay=2000', '/v1/pets', { Prefer: 'delay=2000' }],
    ])('holds a request that asks %s for at least 2000 ms', async (_way, path, headers) => {
      const answer = await timed(() => request(mock, path, headers));

      expect(answer.status).toBe(200);
      expect(addedDelay(answer)).toBe(2000);
      expect(answer.ms).toBeGreaterThanOrEqual(2000 - TIMER_SLACK_MS);
    });

    it('takes the delay of Prefer over the query parameter', async () => {
      const answer = await timed(() => request(mock, '/v1/pets?__delay=2000', { Prefer: 'delay=0' }));

      expect(answer.status).toBe(200);
      expect(addedDelay(answer)).toBe(0);
    });

    it('keeps every delay of the range 100-800 within it', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => timed(() => request(mock, '/v1/pets?__delay=100-800'))),
      );

      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(addedDelay(answer)).toBeGreaterThanOrEqual(100);
        expect(addedDelay(answer)).toBeLessThanOrEqual(800);
        expect(answer.ms).toBeGreaterThanOrEqual(addedDelay(answer) - TIMER_SLACK_MS);
      }
    });

    it.each<[string, string, Record<string, string>]>([
      ['abc', '/v1/pets?__delay=abc', {}],
      ['800-100', '/v1/pets?__delay=800-100', {}],
      ['120001', '/v1/pets?__delay=120001', {}],
      ['abc', '/v1/pets', { Prefer: 'delay=abc' }],
    ])('refuses the delay %s with 400 validation_failed naming it', async (delay, path, headers) => {
      const { message } = await expectContractError(await request(mock, path, headers), 400, 'validation_failed');

      expect(message).toContain(`"${delay}"`);
    });
  });

  describe.each<[string, (fault: Fault) => { path: string; headers: Record<string, string> }]>([
    ['?__fault=', (fault) => ({ path: `/v1/pets?__fault=${fault}`, headers: {} })],
    ['Prefer: fault=', (fault) => ({ path: '/v1/pets', headers: { Prefer: `fault=${fault}` } })],
    ['a scenario', (fault) => ({ path: `/v1/pets?__scenario=${scenarioWith[fault]}`, headers: {} })],
  ])('a fault chosen by %s', (_way, choose) => {
    const send = (fault: Fault) => {
      const { path, headers } = choose(fault);
      return request(mock, path, headers);
    };

    it('unavailable: answers 503 service_unavailable with the Error body and Retry-After', async () => {
      const response = await send('unavailable');

      expect(response.headers.get('Retry-After')).toBe(headerExample('Retry-After-Unavailable'));
      expect(await expectContractError(response, 503, 'service_unavailable')).toEqual(
        exampleValue('ErrorServiceUnavailable'),
      );
    });

    it('drop: closes the connection with no answer, so fetch rejects', async () => {
      await expect(send('drop')).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'UND_ERR_SOCKET' } });
    });

    it('truncate: answers 200 with the whole length in Content-Length, but the body ends early', async () => {
      const response = await send('truncate');

      expect(response.status).toBe(200);
      expect(Number(response.headers.get('Content-Length'))).toBeGreaterThan(0);
      await expect(response.arrayBuffer()).rejects.toThrow('terminated');
    });
  });

  describe('the truncate fault, read byte by byte', () => {
    it("sends the status, the whole body's Content-Length and exactly the first half of the body", async () => {
      const whole = Buffer.from(await (await request(mock, '/v1/pets')).arrayBuffer());

      const cut = await rawGet(`${mock.url}/v1/pets?__fault=truncate`, AUTHORIZED);

      expect(cut).toMatchObject({ status: 200, contentLength: String(whole.length), complete: false });
      expect(cut.received.toString()).toBe(whole.subarray(0, Math.floor(whole.length / 2)).toString());
    });
  });

  it("lets a request's own fault win over its scenario's", async () => {
    await expect(request(mock, `/v1/pets?__scenario=${scenarioWith.unavailable}&__fault=drop`)).rejects.toThrow(
      TypeError,
    );
  });

  it.each<[string, string, Record<string, string>]>([
    ['?__fault=explode', '/v1/pets?__fault=explode', {}],
    ['Prefer: fault=explode', '/v1/pets', { Prefer: 'fault=explode' }],
  ])(
    'refuses the unknown fault of %s with 400 validation_failed naming the known faults',
    async (_way, path, headers) => {
      const { message } = await expectContractError(await request(mock, path, headers), 400, 'validation_failed');

      expect(message).toContain('"explode"');
      for (const fault of FAULTS) expect(message).toContain(fault);
    },
  );

  describe('createAnimalStoreClient against the faults', () => {
    /** A client of the mock whose first request carries `?__<first>`; records every send and every wait. */
    const clientFaultingFirst = (first: string) => {
      const sent: string[] = [];
      const waits: number[] = [];
      const send: FetchLike = async (outgoing) => {
        const url = new URL(outgoing.url);
        if (sent.length === 0) url.searchParams.set(...(first.split('=') as [string, string]));
        sent.push(url.pathname + url.search);
        return await fetch(new Request(url, outgoing));
      };
      const client = createAnimalStoreClient({
        baseUrl: `${mock.url}/v1`,
        apiKey: 'ask_any_key_works_with_the_mock',
        fetch: send,
        retry: {
          sleep: async (ms) => {
            waits.push(ms);
          },
          random: () => 0,
        },
        onDeprecation: () => {},
      });
      return { client, sent, waits };
    };

    it('retries a GET whose connection the mock dropped, once, and gets the pets', async () => {
      const { client, sent } = clientFaultingFirst('__fault=drop');

      const { data, response } = await client.GET('/pets');

      expect(response.status).toBe(200);
      expect(data).toEqual(expect.arrayContaining(exampleValue('PetsFirstPage') as object[]));
      expect(sent).toEqual(['/v1/pets?__fault=drop', '/v1/pets']);
    });

    it('waits the Retry-After of a 429, retries once, and gets the pets', async () => {
      const { client, sent, waits } = clientFaultingFirst('__scenario=rate-limited');

      const { data, response } = await client.GET('/pets');

      expect(response.status).toBe(200);
      expect(data).toEqual(expect.arrayContaining(exampleValue('PetsFirstPage') as object[]));
      expect(sent).toEqual(['/v1/pets?__scenario=rate-limited', '/v1/pets']);
      expect(waits).toEqual([Number(headerExample('Retry-After')) * 1000]);
    });

    it('waits the Retry-After of a 503 service_unavailable, retries once, and gets the pets', async () => {
      const { client, sent, waits } = clientFaultingFirst('__fault=unavailable');

      const { data, response } = await client.GET('/pets');

      expect(response.status).toBe(200);
      expect(data).toEqual(expect.arrayContaining(exampleValue('PetsFirstPage') as object[]));
      expect(sent).toEqual(['/v1/pets?__fault=unavailable', '/v1/pets']);
      expect(waits).toEqual([Number(headerExample('Retry-After-Unavailable')) * 1000]);
    });
  });
});
