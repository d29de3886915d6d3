// The mocks' named scenarios: what a frontend gets in each, the four ways to choose one and which
// wins, the `/__mock/*` endpoints that switch them, and the check of the scenarios file at start.
// Expected bodies are read from mock/scenarios.yaml and the contract through the mock's own
// readers, so that a scenario is described in one place.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { errors } from '../../core/errors.ts';
import { SCENARIO_COOKIE, SCENARIO_PARAMETER } from '../../mock/app/request-choice.ts';
import { loadScenarios } from '../../mock/node/scenarios-file.ts';
import { type RunningMock, startMock } from '../../mock/node/server.ts';
import { type RunningStatefulMock, STATEFUL_MOCK_KEY, startStatefulMock } from '../../mock/node/stateful-server.ts';
import { defined } from '../support/defined.ts';
import {
  AUTHORIZED,
  contract as contractDocument,
  exampleValue,
  expectContractError,
  seededPets,
} from '../support/mock.ts';
import { accepts } from '../support/schema-validator.ts';

const contract = loadContract();
const scenarios = loadScenarios(contract);
const scenarioNamed = (name: string) => defined(scenarios.get(name), `the scenario "${name}" in mock/scenarios.yaml`);

type Send = (path: string) => Promise<Response>;

/**
 * The body a refusing scenario answers `operationId` with: the example its answer names,
 * or the first example of the response; a scenario with the fault `unavailable` answers 503.
 */
function refusalBody(name: string, operationId: string): unknown {
  const { answers, fault } = scenarioNamed(name);
  const answer = answers[operationId] ?? (fault === 'unavailable' ? { status: 503 } : undefined);
  const { status, example } = defined(answer, `the answer of the scenario "${name}" for ${operationId}`);
  const { examples } = defined(contract.operation(operationId).responses[String(status)], `${operationId}'s ${status}`);
  return examples[example ?? defined(Object.keys(examples)[0], `an example of ${operationId}'s ${status}`)];
}

/** The scenarios that refuse every request: the status and code, and what else a client needs to react. */
const REFUSALS: [name: string, status: number, code: string][] = [
  ['rate-limited', 429, 'rate_limited'],
  ['banned', 429, 'key_banned'],
  ['unauthorized', 401, 'unauthorized'],
  ['server-error', 503, 'service_unavailable'],
];

async function expectRefusal(name: string, status: number, code: string, send: Send) {
  for (const [operationId, path] of [
    ['listPets', '/v1/pets'],
    ['getPet', '/v1/pets/42'],
  ] as const) {
    const response = await send(path);
    const retryAfter = response.headers.get('Retry-After');
    const remaining = response.headers.get('X-RateLimit-Remaining');
    const authenticate = response.headers.get('WWW-Authenticate');

    expect(await expectContractError(response, status, code), path).toEqual(refusalBody(name, operationId));
    if (status === 429 || status === 503) expect(retryAfter, `${path} Retry-After`).toMatch(/^[1-9]\d*$/);
    if (status === 429) expect(remaining, `${path} X-RateLimit-Remaining`).toBe('0');
    if (status === 401) expect(authenticate, `${path} WWW-Authenticate`).toBe('Bearer');
  }
}

async function expectExamplePets(response: Response) {
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(
    expect.arrayContaining([
      ...(exampleValue('PetsFirstPage') as object[]),
      ...(exampleValue('PetsAvailable') as object[]),
    ]),
  );
}

/** What a frontend gets in each scenario but `slow`, from `GET /v1/pets` and a `GET /v1/pets/{petId}`. */
const ANSWERS: Record<string, (send: Send) => Promise<void>> = {
  default: async (send) => {
    await expectExamplePets(await send('/v1/pets'));
    const pet = await send('/v1/pets/42');
    expect(pet.status).toBe(200);
    expect(await pet.json()).toEqual(exampleValue('PetFound'));
  },
  empty: async (send) => {
    const list = await send('/v1/pets');
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([]);
    const { message } = await expectContractError(await send('/v1/pets/1'), 404, 'not_found');
    expect(message).toMatch(/\b1\b/);
  },
  gone: async (send) => {
    expect(await expectContractError(await send('/v1/pets/42'), 410, 'gone')).toEqual(refusalBody('gone', 'getPet'));
    await expectExamplePets(await send('/v1/pets'));
  },
  ...Object.fromEntries(
    REFUSALS.map(([name, status, code]) => [name, (send: Send) => expectRefusal(name, status, code, send)]),
  ),
};
const ANSWERED = Object.keys(ANSWERS);

/** An Error body of the `/__mock/*` endpoints, which are no API path and carry no rate-limit headers. */
async function expectAdminError(response: Response, status: number, code: string): Promise<string> {
  const body = (await response.json()) as { message: string };
  expect({ status: response.status, contentType: response.headers.get('content-type') }).toEqual({
    status,
    contentType: 'application/json',
  });
  expect(body).toMatchObject({ code, status });
  expect(accepts(contractDocument.components.schemas.Error, body)).toBe(true);
  return body.message;
}

function expectNamesKnownScenarios(message: string) {
  for (const name of scenarios.keys()) expect(message).toContain(name);
}

describe('mock scenarios', () => {
  let mock: RunningMock;
  /** Started with `scenario: 'rate-limited'`. */
  let limited: RunningMock;
  beforeAll(async () => {
    [mock, limited] = await Promise.all([startMock(), startMock({ scenario: 'rate-limited' })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([mock?.close(), limited?.close()]);
  });

  const sender =
    (on: () => RunningMock, headers: Record<string, string> = {}): Send =>
    (path) =>
      fetch(on().url + path, { headers: { ...AUTHORIZED, ...headers } });
  const admin = (on: RunningMock, method: 'GET' | 'PUT' | 'POST', path: string, body?: string) =>
    fetch(on.url + path, {
      method,
      ...(method !== 'GET' && { headers: { 'Content-Type': 'application/json' } }),
      ...(body !== undefined && { body }),
    });
  const scenarioInForce = async (on: RunningMock) => await (await admin(on, 'GET', '/__mock/scenario')).json();
  const chooseByAdmin = async (on: RunningMock, name: string) => {
    const response = await admin(on, 'PUT', '/__mock/scenario', JSON.stringify({ name }));
    expect(response.status).toBe(204);
  };
  const reset = async (on: RunningMock) => {
    expect((await admin(on, 'POST', '/__mock/reset')).status).toBe(204);
  };

  describe('mock/scenarios.yaml', () => {
    it('holds the scenarios other teams rely on, each a non-empty one-line description', () => {
      expect([...scenarios.keys()]).toEqual([
        'default',
        'empty',
        'rate-limited',
        'banned',
        'unauthorized',
        'server-error',
        'slow',
        'gone',
      ]);
      for (const { name, description } of scenarios.values()) expect(description, name).toMatch(/^[^\n]*\S[^\n]*$/);
    });

    it('has its answers checked here for every scenario but slow', () => {
      expect([...ANSWERED].sort()).toEqual([...scenarios.keys()].filter((name) => name !== 'slow').sort());
    });
  });

  describe.each<[string, (name: string) => Promise<Send>]>([
    [
      'the start flag (startMock({ scenario }))',
      async (name) => {
        const started = await startMock({ scenario: name });
        onTestFinished(() => started.close());
        return sender(() => started);
      },
    ],
    [
      'PUT /__mock/scenario',
      async (name) => {
        onTestFinished(() => reset(mock));
        await chooseByAdmin(mock, name);
        expect(await scenarioInForce(mock)).toEqual({ name });
        return sender(() => mock);
      },
    ],
    [
      `the query parameter ${SCENARIO_PARAMETER}`,
      async (name) => (path) => sender(() => mock)(`${path}?${SCENARIO_PARAMETER}=${encodeURIComponent(name)}`),
    ],
    [`the cookie ${SCENARIO_COOKIE}`, async (name) => sender(() => mock, { Cookie: `${SCENARIO_COOKIE}=${name}` })],
  ])('a scenario chosen by %s', (_way, choose) => {
    it.each(ANSWERED)("gives the answers of '%s'", async (name) => {
      await defined(ANSWERS[name], name)(await choose(name));
    });
  });

  describe('a reserved query parameter given twice', () => {
    it.each([
      [SCENARIO_PARAMETER, 'empty', 'default'],
      ['__fault', 'drop', 'unavailable'],
    ])(
      'refuses %s given twice with 400 naming it, as the API refuses a parameter of its own given twice',
      async (name, first, second) => {
        const { message } = await expectContractError(
          await sender(() => mock)(`/v1/pets?${name}=${first}&${name}=${second}`),
          400,
          'validation_failed',
        );
        expect(message).toContain(`\`${name}\``);
        expect(message).toMatch(/at most once/);
        const api = await expectContractError(
          await sender(() => mock)('/v1/pets?limit=1&limit=2'),
          400,
          'validation_failed',
        );
        expect(api.message).toMatch(/at most once/);
      },
    );
  });

  describe('the probes, which no key, rate limit or refusal of a scenario concerns', () => {
    const probe = (operationId: 'getHealth' | 'getReadiness', name: string) =>
      fetch(`${mock.url}${contract.operation(operationId).servedPath}?${SCENARIO_PARAMETER}=${name}`);
    const expectNoRateLimitHeaders = (response: Response) => {
      expect([...response.headers.keys()].filter((header) => header.startsWith('x-ratelimit-'))).toEqual([]);
    };

    it.each(ANSWERED)("answer in '%s' as the service would, without a key", async (name) => {
      const health = await probe('getHealth', name);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual(exampleValue('HealthAlive'));
      expectNoRateLimitHeaders(health);

      const readiness = await probe('getReadiness', name);
      expectNoRateLimitHeaders(readiness);
      if (scenarioNamed(name).fault === 'unavailable') {
        // The storage is down in this scenario: the declared 503, with its example.
        expect(readiness.status).toBe(503);
        expect(readiness.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
        expect(await readiness.json()).toEqual(refusalBody(name, 'getReadiness'));
      } else {
        expect(readiness.status).toBe(200);
        expect(await readiness.json()).toEqual(exampleValue('ReadinessReady'));
      }
    });
  });

  describe("the scenario 'slow'", () => {
    it('answers within the delay range the scenarios file gives, at least two seconds', async () => {
      const { minMs, maxMs } = defined(scenarioNamed('slow').delay, 'the delay of the scenario slow');
      const started = performance.now();
      const response = await sender(() => mock)(`/v1/pets?${SCENARIO_PARAMETER}=slow`);
      await response.arrayBuffer();
      const elapsed = performance.now() - started;

      expect(response.status).toBe(200);
      expect(minMs).toBeGreaterThanOrEqual(2000);
      expect(elapsed).toBeGreaterThanOrEqual(minMs);
      expect(elapsed).toBeLessThan(maxMs + 1000);
    });
  });

  describe('GET /__mock/scenarios', () => {
    it('lists every scenario of the file, in its order, with its one-line description', async () => {
      const response = await admin(mock, 'GET', '/__mock/scenarios');

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(
        [...scenarios.values()].map(({ name, description }) => ({ name, description })),
      );
    });
  });

  describe('PUT /__mock/scenario', () => {
    afterEach(() => reset(mock));

    it.each([
      ['an unknown name', '{"name":"nope"}', /"nope"/],
      ['no name', '{"scenario":"empty"}', /name/],
    ])(
      'refuses %s with 400 validation_failed naming the known scenarios, and keeps the scenario in force',
      async (_case, body, named) => {
        await chooseByAdmin(mock, 'empty');

        const message = await expectAdminError(
          await admin(mock, 'PUT', '/__mock/scenario', body),
          400,
          'validation_failed',
        );

        expect(message).toMatch(named);
        expectNamesKnownScenarios(message);
        expect(await scenarioInForce(mock)).toEqual({ name: 'empty' });
        expect(await (await sender(() => mock)('/v1/pets')).json()).toEqual([]);
      },
    );
  });

  describe('PUT /__mock/scenario with a large body', () => {
    const overLimit = JSON.stringify({ name: 'a'.repeat(contract.largestBodyBytes) });

    it.each([
      ['declared with Content-Length', overLimit],
      [
        'sent chunked, without a length',
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(overLimit));
            controller.close();
          },
        }),
      ],
    ])('refuses a body over the API limit %s with 413 payload_too_large', async (_case, body) => {
      const response = await fetch(`${mock.url}/__mock/scenario`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);

      const message = await expectAdminError(response, 413, 'payload_too_large');
      expect(message).toBe(errors.payloadTooLarge().message);
      expect(await scenarioInForce(mock)).toEqual({ name: 'default' });
    });

    it('quotes an unknown name of any length by its first 100 characters only', async () => {
      const name = `${'b'.repeat(100)}${'c'.repeat(5_000)}`;
      const response = await admin(mock, 'PUT', '/__mock/scenario', JSON.stringify({ name }));

      const message = await expectAdminError(response, 400, 'validation_failed');
      expect(message).toContain(`"${'b'.repeat(100)}…"`);
      expect(message).not.toContain('bc');
    });
  });

  describe('POST /__mock/reset', () => {
    it('returns the scenario chosen with PUT /__mock/scenario to the one the mock started with', async () => {
      await chooseByAdmin(limited, 'default');
      expect((await sender(() => limited)('/v1/pets')).status).toBe(200);

      await reset(limited);

      expect(await scenarioInForce(limited)).toEqual({ name: 'rate-limited' });
      await expectContractError(await sender(() => limited)('/v1/pets'), 429, 'rate_limited');
    });
  });

  describe('precedence: Prefer, then the query, then the cookie, then PUT /__mock/scenario, then the start flag', () => {
    afterEach(() => reset(limited));

    interface Choice {
      admin?: string;
      cookie?: string;
      /** The query string, reserved parameters and all. */
      query?: string;
      prefer?: string;
    }
    const pets = (name: string) => exampleValue(name) as object[];

    it.each<[string, Choice, number, unknown]>([
      ['the start flag alone (rate-limited)', {}, 429, refusalBody('rate-limited', 'listPets')],
      [
        'PUT /__mock/scenario (default) over the start flag (rate-limited)',
        { admin: 'default' },
        200,
        expect.arrayContaining(pets('PetsFirstPage')),
      ],
      [
        'the cookie (empty) over PUT /__mock/scenario (rate-limited)',
        { admin: 'rate-limited', cookie: 'empty' },
        200,
        [],
      ],
      [
        'the query (default) over the cookie (empty)',
        { cookie: 'empty', query: `${SCENARIO_PARAMETER}=default` },
        200,
        expect.arrayContaining(pets('PetsAvailable')),
      ],
      [
        'Prefer: code=200 over the query (unauthorized)',
        { query: `${SCENARIO_PARAMETER}=unauthorized`, prefer: 'code=200' },
        200,
        pets('PetsFirstPage'),
      ],
      [
        'Prefer: code=200 over the query parameter __code=401',
        { query: '__code=401', prefer: 'code=200' },
        200,
        pets('PetsFirstPage'),
      ],
    ])('%s', async (_case, { admin: adminChoice, cookie, query, prefer }, status, body) => {
      if (adminChoice !== undefined) await chooseByAdmin(limited, adminChoice);
      const headers: Record<string, string> = {
        ...(cookie !== undefined && { Cookie: `${SCENARIO_COOKIE}=${cookie}` }),
        ...(prefer !== undefined && { Prefer: prefer }),
      };

      const response = await sender(() => limited, headers)(query === undefined ? '/v1/pets' : `/v1/pets?${query}`);

      expect({ status: response.status, body: await response.json() }).toEqual({ status, body });
    });
  });

  describe('an unknown scenario in a request', () => {
    it.each<[string, string, Record<string, string>]>([
      ['the query parameter', `/v1/pets?${SCENARIO_PARAMETER}=nope`, {}],
      ['the cookie', '/v1/pets', { Cookie: `${SCENARIO_COOKIE}=nope` }],
    ])('named by %s is refused with 400 validation_failed naming the known scenarios', async (_way, path, headers) => {
      const { message } = await expectContractError(await sender(() => mock, headers)(path), 400, 'validation_failed');

      expect(message).toContain('"nope"');
      expectNamesKnownScenarios(message);
    });
  });

  describe('reserved query parameters', () => {
    it.each([`${SCENARIO_PARAMETER}=default`, '__delay=0', '__dynamic=false'])(
      'are taken off before the API sees the request: ?limit=2&%s answers as ?limit=2 does, with a next link free of them',
      async (reserved) => {
        const plain = await sender(() => mock)('/v1/pets?limit=2');
        const withReserved = await sender(() => mock)(`/v1/pets?limit=2&${reserved}`);
        const link = withReserved.headers.get('Link');
        const answer = async (response: Response) => ({
          status: response.status,
          link: response.headers.get('Link'),
          body: await response.json(),
        });

        expect(await answer(withReserved)).toEqual(await answer(plain));
        expect(link).toMatch(/rel="next"/);
        expect(link).not.toContain('__');
        expect(withReserved.status).toBe(200);
      },
    );
  });
});

describe('the scenarios file, checked against the contract when a mock starts', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'mock-scenarios-'));
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const DEFAULT = 'default:\n  description: Answers as the service would.\n';

  it.each<[string, string, string, string[]]>([
    [
      'a status the operation does not declare',
      'undeclared-status.yaml',
      'teapot:\n  description: Tea.\n  answers:\n    getPet: { status: 418 }\n',
      ['"teapot"', 'getPet', '418'],
    ],
    [
      'an example the response lacks',
      'missing-example.yaml',
      'lost:\n  description: Lost.\n  answers:\n    getPet: { status: 404, example: ErrorGone }\n',
      ['"lost"', 'getPet', 'ErrorGone'],
    ],
    [
      'an operationId the contract lacks',
      'unknown-operation.yaml',
      // Named so that no contract will ever gain it.
      'removal:\n  description: Removal.\n  answers:\n    notAnOperation: { status: 204 }\n',
      ['"removal"', 'notAnOperation'],
    ],
    [
      'an unknown field',
      'unknown-field.yaml',
      'typo:\n  description: Typo.\n  answer:\n    getPet: { status: 404 }\n',
      ['"typo"', '"answer"'],
    ],
    ['a bad delay', 'bad-delay.yaml', 'sluggish:\n  description: Sluggish.\n  delay: fast\n', ['"sluggish"', 'fast']],
    ['a bad fault', 'bad-fault.yaml', 'broken:\n  description: Broken.\n  fault: explode\n', ['"broken"', 'explode']],
    ['no description', 'no-description.yaml', 'mute:\n  data: none\n', ['"mute"', 'description']],
  ])(
    'refuses to start on %s, naming the file, the scenario and what is wrong',
    async (_case, fileName, scenario, named) => {
      const scenariosFile = path.join(directory, fileName);
      await writeFile(scenariosFile, DEFAULT + scenario);

      const error = await startMock({ scenariosFile }).then(
        async (started) => {
          await started.close();
          return undefined;
        },
        (refusal: unknown) => refusal,
      );

      expect(error).toBeInstanceOf(Error);
      const { message } = error as Error;
      expect(message).toContain(fileName);
      for (const name of named) expect(message).toContain(name);
    },
  );

  it('refuses to start on a file without the scenario default, naming the file', async () => {
    const scenariosFile = path.join(directory, 'no-default.yaml');
    await writeFile(scenariosFile, 'quiet:\n  description: Quiet.\n  data: none\n');

    await expect(startMock({ scenariosFile })).rejects.toThrow(/no-default\.yaml.*"default"/);
  });
});

describe('startStatefulMock with scenarios', () => {
  let plain: RunningStatefulMock;
  let limited: RunningStatefulMock;
  beforeAll(async () => {
    [plain, limited] = await Promise.all([startStatefulMock(), startStatefulMock({ scenario: 'rate-limited' })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([plain?.close(), limited?.close()]);
  });

  const request = (on: RunningStatefulMock, path: string) =>
    fetch(on.url + path, { headers: { Authorization: `Bearer ${STATEFUL_MOCK_KEY}` } });

  it("refuses every request with 429 rate_limited when started with the scenario 'rate-limited'", async () => {
    const response = await request(limited, '/v1/pets');

    expect(response.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(await expectContractError(response, 429, 'rate_limited')).toEqual(refusalBody('rate-limited', 'listPets'));
  });

  it(`answers an empty list for ?${SCENARIO_PARAMETER}=empty, and its seeded pets without it`, async () => {
    const empty = await request(plain, `/v1/pets?${SCENARIO_PARAMETER}=empty`);
    const seeded = await request(plain, '/v1/pets?limit=100');

    expect({ status: empty.status, body: await empty.json() }).toEqual({ status: 200, body: [] });
    expect(await seeded.json()).toEqual(expect.arrayContaining(seededPets(plain)));
  });
});
