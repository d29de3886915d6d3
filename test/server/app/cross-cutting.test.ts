import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { createApp } from '../../../core/app.ts';
import type { CollectionStore } from '../../../core/collections/store.ts';
import type { ErrorBody } from '../../../core/errors.ts';
import { UnavailableError } from '../../../core/errors.ts';
import { notImplemented } from '../../../core/http-types.ts';
import { createLogger } from '../../../core/logger.ts';
import type { Pet } from '../../../generated/openapi.ts';
import { CONTRACT_BAN_RULES, WITHOUT_KEY_LIMITS, WITHOUT_KEY_PLAN } from '../../support/contract-rate-limits.ts';
import { defined } from '../../support/defined.ts';
import {
  addPets,
  DOCUMENTED_ERROR_CODES,
  ERROR_CODE_STATUSES,
  expectError,
  expectErrorBody,
  expectJsonContentType,
  postRaw,
  RATE_LIMIT_HEADERS,
  type Send,
  SMALL_WINDOW_KEY,
  SUNSET,
  useUpMinuteWindow,
  withApp,
} from '../../support/http.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { undeclaredMethods, unknownPaths } from '../../support/unknown-paths.ts';

const LIMITER_CODES = ['rate_limited', 'key_banned'];

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await addPets(t, ['available']);
});
afterAll(() => t.close());

/** An internal failure with the kind of detail that must never reach a client. */
function internalFailure(): Error {
  return new Error(
    'SQLITE_IOERR: disk I/O error at /srv/animal-store/secret-volume/animal-store.db (db_password=hunter2)',
  );
}

/** Makes one store method fail once, as an unexpected failure would. */
function failOnce(app: TestApp, method: keyof CollectionStore, failure = internalFailure()): void {
  vi.spyOn(app.pets, method).mockRejectedValueOnce(failure);
}

/** Parsed access-log lines (those naming a request's path), in order. */
function accessLines(app: TestApp): Record<string, unknown>[] {
  return app.logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => 'path' in line);
}

const NEW_PET = { name: 'Rex', categoryId: 1 };

function postWithKey(app: TestApp, body: unknown, key: string): Promise<Response> {
  return Promise.resolve(app.request('/v1/pets', { method: 'POST', json: body, headers: { 'Idempotency-Key': key } }));
}

/** A method the contract does not declare on the pets' collection path. */
const [[undeclaredOnCollection, collectionPath]] = undeclaredMethods(['/v1/pets']) as [[string, string, string[]]];

describe('errors', () => {
  it.each([...unknownPaths().map((path) => `/v1${path}`), '/pets', '/v1', '/nope'])(
    'answers the unknown path %s with 404 not_found naming it',
    async (path) => {
      await expectError(await t.request(path), 404, 'not_found', path);
    },
  );

  it.each(undeclaredMethods(['/v1/pets', '/v1/pets/1']))(
    'answers %s %s with 405 method_not_allowed and an Allow header listing what the contract declares',
    async (method, path, allowed) => {
      const response = await t.request(path, { method });
      await expectError(response, 405, 'method_not_allowed', method);
      expect(response.headers.get('Allow')).toBe(allowed.join(', '));
    },
  );

  it.each<[keyof CollectionStore, string, RequestInit & { json?: unknown }]>([
    ['list', '/v1/pets', {}],
    ['get', '/v1/pets/1', {}],
    ['create', '/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }],
  ])(
    'answers a failure of the store (%s) with 500 internal_error, disclosing nothing, and logs the detail',
    async (method, path, init) => {
      const failure = internalFailure();
      failOnce(t, method, failure);
      const response = await t.request(path, init);
      const requestId = defined(response.headers.get('X-Request-Id'), 'an X-Request-Id header');
      const text = await response.clone().text();

      const error = await expectError(response, 500, 'internal_error');
      for (const detail of [
        'hunter2',
        'SQLITE',
        'secret-volume',
        'animal-store.db',
        failure.message,
        'Error:',
        '.ts:',
      ]) {
        expect(text).not.toContain(detail);
      }
      // The id to quote is the answer's own header, which the log line carries too.
      expect(error.message).toContain('`X-Request-Id`');
      const logged = t.logLines.filter((line) => line.includes(requestId)).join('\n');
      expect(logged).toContain(failure.message);
      expect(logged).toContain('cross-cutting.test.ts');
    },
  );

  it('uses only documented codes for every error, each with its status in the contract, and produces every documented code', async () => {
    const cases: [string, Send][] = [
      ['invalid limit', (app) => app.request('/v1/pets?limit=0')],
      ['invalid status', (app) => app.request('/v1/pets?status=lost')],
      ['invalid cursor', (app) => app.request('/v1/pets?cursor=forged')],
      ['invalid petId', (app) => app.request('/v1/pets/0')],
      ['invalid body', (app) => postRaw(app, '{"name":""}')],
      ['malformed JSON', (app) => postRaw(app, '{')],
      ['invalid Idempotency-Key', (app) => postWithKey(app, NEW_PET, 'two words')],
      [
        'Idempotency-Key reused',
        async (app) => {
          await postWithKey(app, NEW_PET, 'reused');
          return postWithKey(app, { ...NEW_PET, name: 'Other' }, 'reused');
        },
      ],
      [
        'Idempotency-Key in progress',
        async (app) => {
          let release = () => {};
          const held = new Promise<void>((resolve) => {
            release = resolve;
          });
          const createOnce = app.pets.createOnce.bind(app.pets);
          const spy = vi.spyOn(app.pets, 'createOnce').mockImplementationOnce(async (...args) => {
            await held;
            return createOnce(...args);
          });
          const first = postWithKey(app, NEW_PET, 'in-progress');
          await expect.poll(() => spy.mock.calls.length).toBe(1);
          const repeat = await postWithKey(app, NEW_PET, 'in-progress');
          release();
          await first;
          return repeat;
        },
      ],
      [
        'a transition the contract does not allow',
        async (app) => {
          const sold = (await (await postRaw(app, '{"name":"Rex","categoryId":1,"status":"sold"}')).json()) as Pet;
          return patchPet(app, sold.id, '{"status":"available"}');
        },
      ],
      [
        'a stale If-Match',
        async (app) => {
          const pet = (await (await postRaw(app, '{"name":"Rex","categoryId":1}')).json()) as Pet;
          return patchPet(app, pet.id, '{"name":"Max"}', { 'If-Match': '"0000000000000000"' });
        },
      ],
      ['empty body', (app) => postRaw(app, '')],
      ['body too large', (app) => postRaw(app, `{"name":"${'a'.repeat(20_000)}","categoryId":1}`)],
      ['not JSON', (app) => postRaw(app, 'name=Rex', 'text/plain')],
      ['no key', (app) => app.app.request('/v1/pets')],
      ['unknown key', (app) => app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_unknown' } })],
      ['unknown path', (app) => app.request('/v1/nope')],
      [
        'too many webhook endpoints',
        async (app) => {
          const register = () =>
            app.request('/v1/webhook-endpoints', {
              method: 'POST',
              json: { url: 'https://93.184.215.14/hooks', events: ['pet.created'] },
            });
          let response = await register();
          while (response.status === 201) response = await register();
          return response;
        },
      ],
      ['missing pet', (app) => app.request('/v1/pets/999')],
      ['other method', (app) => app.request(collectionPath, { method: undeclaredOnCollection })],
      [
        'unexpected failure',
        (app) => {
          failOnce(app, 'list');
          return app.request('/v1/pets');
        },
      ],
      [
        'storage failure',
        (app) => {
          failOnce(app, 'list', new UnavailableError('storage', 'the disk is full'));
          return app.request('/v1/pets');
        },
      ],
      [
        'not implemented',
        // The app core with a handler table that implements nothing, on the test app's keys.
        (app) =>
          createApp({
            handlers: Object.fromEntries(
              loadContract().operations.map(({ operationId }) => [operationId, notImplemented]),
            ),
            keys: app.keys,
            limiters: app.limiters,
            clock: app.clock,
            logger: createLogger('silent'),
            clientAddress: () => '192.0.2.1',
          }).request('/v1/pets', { headers: { Authorization: `Bearer ${app.apiKey}` } }),
      ],
      [
        'after the sunset',
        (app) => {
          app.clock.set(SUNSET);
          return app.request('/v1/pets/1');
        },
      ],
    ];
    const seen = new Map<string, string>();
    const check = async (label: string, response: Response) => {
      expect(response.status, label).toBeGreaterThanOrEqual(400);
      expectJsonContentType(response);
      const body = (await response.json()) as ErrorBody;
      expectErrorBody(body, response.status, label);
      expect(DOCUMENTED_ERROR_CODES, label).toContain(body.code);
      expect(response.status, `${label}: the status x-error-codes gives ${body.code}`).toBe(
        ERROR_CODE_STATUSES.get(body.code),
      );
      seen.set(body.code, label);
    };
    for (const [label, send] of cases) await withApp(async (app) => check(label, await send(app)));

    await withApp(
      async (app) => {
        await useUpMinuteWindow(app, SMALL_WINDOW_KEY.perMinute);
        // The refusals the contract's ban tolerates, then the one that starts a ban.
        for (let refused = 1; refused <= CONTRACT_BAN_RULES.afterRefusals + 1; refused++)
          await check(`refused request ${refused}`, await app.request('/v1/pets'));
      },
      { key: SMALL_WINDOW_KEY },
    );

    const expected = DOCUMENTED_ERROR_CODES.filter((code) => !LIMITER_CODES.includes(code));
    expect(
      expected.filter((code) => !seen.has(code)),
      'documented codes no case above produces: add a case answering each',
    ).toEqual([]);
  });
});

function patchPet(app: TestApp, id: number, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.request(`/v1/pets/${id}`, {
      method: 'PATCH',
      body,
      headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    }),
  );
}

describe('authentication', () => {
  it.each<[string, (key: string) => string | undefined]>([
    ['no Authorization header', () => undefined],
    ['the Basic scheme', () => 'Basic dXNlcjpwYXNzd29yZA=='],
    ['the Basic scheme carrying the key', (key) => `Basic ${key}`],
    ['the key without a scheme', (key) => key],
    ['the Bearer scheme without a key', () => 'Bearer'],
    ['the Bearer scheme with an empty key', () => 'Bearer '],
    ['two tokens', (key) => `Bearer ${key} ${key}`],
    ['a comma after the key', (key) => `Bearer ${key},`],
    ['an unknown key', () => `Bearer ask_${'A'.repeat(43)}`],
    ['the key with its last character changed', (key) => `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`],
    ['the key cut short', (key) => `Bearer ${key.slice(0, -1)}`],
  ])('answers %s with 401 unauthorized and WWW-Authenticate: Bearer', async (_, authorization) => {
    const value = authorization(t.apiKey);
    const response = await t.app.request('/v1/pets', value === undefined ? {} : { headers: { Authorization: value } });
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer\b/);
    await expectError(response, 401, 'unauthorized');
  });

  it('answers a revoked key with 401 unauthorized, exactly as an unknown key', async () => {
    const { record, secret } = await t.keys.create({ plan: 'pro' });
    expect((await t.request('/v1/pets', { headers: { Authorization: `Bearer ${secret}` } })).status).toBe(200);
    await t.keys.revoke(record.id);

    const revoked = await t.request('/v1/pets', { headers: { Authorization: `Bearer ${secret}` } });
    expect(revoked.headers.get('WWW-Authenticate')).toMatch(/^Bearer\b/);
    const revokedBody = await expectError(revoked, 401, 'unauthorized');
    const unknown = await t.request('/v1/pets', { headers: { Authorization: `Bearer ask_${'A'.repeat(43)}` } });
    expect(await unknown.json()).toEqual(revokedBody);
  });

  it.each(['bearer', 'BEARER', 'Bearer', 'bEaReR'])('accepts the scheme name written %s', async (scheme) => {
    const response = await t.request('/v1/pets', { headers: { Authorization: `${scheme} ${t.apiKey}` } });
    expect(response.status).toBe(200);
  });

  it.each([
    ['GET', '/v1/pets'],
    ['GET', '/v1/pets/1'],
    ['GET', '/v1/pets/abc'],
    ['POST', '/v1/pets'],
    ['GET', '/v1/nope'],
    // GET / is the open index; any other method on / is an API request like the rest.
    ['POST', '/'],
    [undeclaredOnCollection, collectionPath],
  ])('answers %s %s without a key with 401, before routing or validation', async (method, path) => {
    const response = await t.app.request(path, {
      method,
      body: method === 'POST' ? '{' : undefined,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer\b/);
    await expectError(response, 401, 'unauthorized');
  });

  it(`counts requests without a valid key against the caller's address on the ${WITHOUT_KEY_PLAN} plan`, async () => {
    const { perMinute } = WITHOUT_KEY_LIMITS;
    await withApp(async (app) => {
      const first = await app.app.request('/v1/pets');
      const second = await app.request('/v1/pets', { headers: { Authorization: 'Bearer ask_unknown' } });
      expect([first.status, second.status]).toEqual([401, 401]);
      expect([first, second].map((response) => response.headers.get('X-RateLimit-Limit'))).toEqual([
        String(perMinute),
        String(perMinute),
      ]);
      expect([first, second].map((response) => response.headers.get('X-RateLimit-Remaining'))).toEqual([
        String(perMinute - 1),
        String(perMinute - 2),
      ]);

      app.setClientAddress('198.51.100.7');
      expect((await app.app.request('/v1/pets')).headers.get('X-RateLimit-Remaining')).toBe(String(perMinute - 1));
    });
  });
});

describe('logging', () => {
  const [[undeclaredOnItem, itemPath]] = undeclaredMethods(['/v1/pets/1']) as [[string, string, string[]]];
  it('writes one JSON line per request with time, requestId, trace_id, method, path, status, durationMs, the key’s id and the client address', async () => {
    await withApp(async (app) => {
      const requests: [string, RequestInit & { json?: unknown }, number][] = [
        ['/v1/pets?limit=5', {}, 200],
        ['/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }, 201],
        ['/v1/pets', { method: 'POST', json: { name: '' } }, 400],
        ['/v1/nope', {}, 404],
        [itemPath, { method: undeclaredOnItem }, 405],
      ];
      for (const [index, [path, init, status]] of requests.entries()) {
        const response = await app.request(path, init);
        expect(response.status).toBe(status);
        const lines = accessLines(app);
        expect(lines).toHaveLength(index + 1);
        expect(lines.at(-1)).toEqual({
          time: expect.any(String),
          level: 'info',
          requestId: response.headers.get('X-Request-Id'),
          trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
          method: init.method ?? 'GET',
          path: new URL(path, 'http://localhost').pathname,
          status,
          durationMs: expect.any(Number),
          keyId: 1,
          clientAddress: '192.0.2.1',
        });
        const last = defined(lines.at(-1), 'an access-log line');
        expect(Date.parse(last.time as string)).not.toBeNaN();
        expect(last.durationMs).toBeGreaterThanOrEqual(0);
      }
      expect(app.logLines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    });
  });

  it('echoes the X-Request-Id it receives and logs it', async () => {
    const response = await t.request('/v1/pets', { headers: { 'X-Request-Id': 'client-trace-42' } });
    expect(response.headers.get('X-Request-Id')).toBe('client-trace-42');
    expect(accessLines(t).at(-1)).toMatchObject({ requestId: 'client-trace-42', path: '/v1/pets', status: 200 });
  });

  it.each([
    ['longer than 255 characters', 'a'.repeat(256)],
    ['with a character other than a letter, digit, _, - or =', 'trace/42'],
  ])('answers with a request id of its own for an X-Request-Id %s', async (_case, sent) => {
    const response = await t.request('/v1/pets', { headers: { 'X-Request-Id': sent } });
    const answered = defined(response.headers.get('X-Request-Id'), 'an X-Request-Id header');
    expect(answered).not.toBe(sent);
    expect(answered).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('generates a different request id for each request that sends none, and logs it', async () => {
    const first = await t.request('/v1/pets');
    const firstId = first.headers.get('X-Request-Id');
    const second = await t.request('/v1/nope');
    const secondId = second.headers.get('X-Request-Id');
    expect(firstId).toMatch(/\S{8,}/);
    expect(secondId).toMatch(/\S{8,}/);
    expect(firstId).not.toBe(secondId);
    expect(
      accessLines(t)
        .slice(-2)
        .map((line) => line.requestId),
    ).toEqual([firstId, secondId]);
  });

  it('never writes the API key, whatever the request', async () => {
    await withApp(async (app) => {
      const key = app.apiKey;
      const secretPart = key.slice(key.indexOf('_') + 1);
      await app.request('/v1/pets');
      await app.request('/v1/pets', { headers: { Authorization: `bearer ${key}` } });
      await app.request(`/v1/pets?api_key=${key}`);
      await app.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } });
      await app.request('/v1/pets', { method: 'POST', json: { name: key, categoryId: 0 } });
      await app.request('/v1/pets', { headers: { Authorization: `Basic ${key}` } });
      await app.request('/v1/pets', { headers: { Authorization: `Bearer ${key}x` } });
      failOnce(app, 'list');
      await app.request('/v1/pets');
      expect(accessLines(app)).toHaveLength(8);
      expect(app.logLines.filter((line) => line.includes(secretPart))).toEqual([]);
    });
  });
});

describe('CORS', () => {
  const ORIGIN = 'https://app.example';
  /** Every header an answer of the contract declares, and the request id: a page may read each. */
  const EXPOSED = [
    ...new Set(
      loadContract().operations.flatMap((operation) =>
        Object.values(operation.responses).flatMap((response) => Object.keys(response.headers)),
      ),
    ),
    'X-Request-Id',
  ];

  let cors: TestApp;
  beforeAll(async () => {
    cors = await createTestApp({ corsOrigins: [ORIGIN] });
  });
  afterAll(() => cors.close());

  const headerList = (response: Response, name: string) =>
    (response.headers.get(name) ?? '')
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter(Boolean);

  function preflight(app: TestApp, origin: string, path = '/v1/pets') {
    return app.app.request(path, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
      },
    });
  }

  it.each(['/v1/pets', '/v1/pets/1'])(
    'answers a preflight for %s from an allowed origin without asking for a key',
    async (path) => {
      const response = await preflight(cors, ORIGIN, path);
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
      expect(headerList(response, 'Access-Control-Allow-Headers')).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
      );
    },
  );

  it.each([
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets/1', '/v1/pets/{petId}'],
  ])(
    'answers a preflight for %s with the methods of its path in Allow and Access-Control-Allow-Methods',
    async (path, servedPath) => {
      const methods = defined(
        loadContract().paths.find((contractPath) => contractPath.servedPath === servedPath),
        servedPath,
      ).allow.join(', ');

      const response = await preflight(cors, ORIGIN, path);

      expect(response.status).toBe(204);
      expect(response.headers.get('Allow')).toBe(methods);
      expect(response.headers.get('Access-Control-Allow-Methods')).toBe(methods);
    },
  );

  it('answers a preflight for a path the API does not serve with 404 not_found', async () => {
    const response = await preflight(cors, ORIGIN, '/v1/no-such-thing');

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found', status: 404 });
    expect(response.headers.get('Access-Control-Allow-Methods')).toBeNull();
  });

  it('answers an OPTIONS that is no preflight as any method the path lacks: 405 with Allow', async () => {
    const response = await cors.request('/v1/pets', { method: 'OPTIONS', headers: { Origin: ORIGIN } });

    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe(
      defined(
        loadContract().paths.find((path) => path.servedPath === '/v1/pets'),
        '/v1/pets',
      ).allow.join(', '),
    );
  });

  it.each([
    [200, (app: TestApp) => app.request('/v1/pets', { headers: { Origin: ORIGIN } })],
    [
      201,
      (app: TestApp) =>
        app.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 }, headers: { Origin: ORIGIN } }),
    ],
    [401, (app: TestApp) => app.app.request('/v1/pets/1', { headers: { Origin: ORIGIN } })],
  ])(
    'lets a browser at an allowed origin read the %i response and every header the contract declares for answers',
    async (status, send) => {
      const response = await send(cors);
      expect(response.status).toBe(status);
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe(ORIGIN);
      expect(headerList(response, 'Access-Control-Expose-Headers')).toEqual(
        expect.arrayContaining(EXPOSED.map((name) => name.toLowerCase())),
      );
    },
  );

  it('gives a disallowed origin no Access-Control-Allow-Origin', async () => {
    const evil = 'https://evil.example';
    expect((await preflight(cors, evil)).headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(
      (await cors.request('/v1/pets', { headers: { Origin: evil } })).headers.get('Access-Control-Allow-Origin'),
    ).toBeNull();
  });

  it.each([
    ['an allowed origin', { Origin: ORIGIN }],
    ['a disallowed origin', { Origin: 'https://evil.example' }],
    ['no origin', {}],
  ])('tells caches that the answer to %s varies with Origin', async (_, headers) => {
    const response = await cors.request('/v1/pets', { headers });
    expect(response.status).toBe(200);
    expect(headerList(response, 'Vary')).toContain('origin');
    expect(response.headers.get('Access-Control-Allow-Credentials')).toBeNull();
  });

  it('allows no origin when none is configured', async () => {
    expect((await preflight(t, ORIGIN)).headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(
      (await t.request('/v1/pets', { headers: { Origin: ORIGIN } })).headers.get('Access-Control-Allow-Origin'),
    ).toBeNull();
  });
});

describe('rate-limit headers', () => {
  it.each<[number, Send, Parameters<typeof createTestApp>[0]?]>([
    [200, (app) => app.request('/v1/pets')],
    [201, (app) => app.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } })],
    [400, (app) => app.request('/v1/pets?limit=0')],
    [401, (app) => app.app.request('/v1/pets')],
    [404, (app) => app.request('/v1/pets/1')],
    [405, (app) => app.request(collectionPath, { method: undeclaredOnCollection })],
    [
      410,
      (app) => {
        app.clock.set(SUNSET);
        return app.request('/v1/pets/1');
      },
    ],
    [413, (app) => postRaw(app, `{"name":"${'a'.repeat(20_000)}","categoryId":1}`)],
    [415, (app) => postRaw(app, '{}', 'text/plain')],
    [
      429,
      async (app) => {
        await useUpMinuteWindow(app, SMALL_WINDOW_KEY.perMinute);
        return app.request('/v1/pets');
      },
      { key: SMALL_WINDOW_KEY },
    ],
    [
      500,
      (app) => {
        failOnce(app, 'list');
        return app.request('/v1/pets');
      },
    ],
  ])('a %i response carries X-RateLimit-Limit, -Remaining and -Reset as integers', async (status, send, options) => {
    await withApp(async (app) => {
      const response = await send(app);
      expect(response.status).toBe(status);
      const [limit, remaining, reset] = RATE_LIMIT_HEADERS.map((name) => response.headers.get(name));
      for (const value of [limit, remaining, reset]) expect(value).toMatch(/^\d+$/);
      expect(Number(remaining)).toBeLessThanOrEqual(Number(limit));
      expect(Number(reset)).toBeGreaterThanOrEqual(Math.floor(app.clock.now() / 1000));
    }, options);
  });
});
