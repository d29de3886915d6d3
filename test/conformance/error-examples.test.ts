// Every error example of the contract is what the service answers in its case: the server, the
// static mock and the stateful mock are each brought to the case and must answer the example's
// status and body, sentence for sentence, so that the docs (which show the examples), a mock
// answering `Prefer: example=...` and the service never say two things. A mock that cannot come to
// a case by itself (it keeps no state, or has no storage to fail, no limit to enforce) is asked for
// the example, as a frontend developer asks it. Each target starts holding the items of the
// contract's examples, as the stateful mock does, so that an example naming an item finds it.
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { collectionsOf } from '../../contract/collections.ts';
import { deprecationOf } from '../../contract/deprecation.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';
import type { ErrorBody } from '../../core/errors.ts';
import { startMock } from '../../mock/node/server.ts';
import { STATEFUL_MOCK_KEY, startStatefulMock } from '../../mock/node/stateful-server.ts';
import { seedSqlite } from '../../server/tools/db/seed.ts';
import { allResponses, componentSchema, jsonContent, requestBody, resolve } from '../support/contract-document.ts';
import { defined } from '../support/defined.ts';
import { failStorage } from '../support/failing-storage.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const contract = loadContract();

interface ErrorExample {
  name: string;
  value: ErrorBody;
  /** The operations that declare it among their answers. */
  operationIds: Set<string>;
}

/** Every named example of an Error answer of the contract, with the operations declaring it. */
const errorExamples = (() => {
  const byName = new Map<string, ErrorExample>();
  for (const { operationId, status, response } of allResponses) {
    if (Number(status) < 400 || response.content === undefined) continue;
    if (resolve(jsonContent(response).schema ?? {}) !== componentSchema('Error')) continue;
    for (const [name, example] of Object.entries(jsonContent(response).examples ?? {})) {
      const found = byName.get(name) ?? {
        name,
        value: (resolve(example) as { value: ErrorBody }).value,
        operationIds: new Set(),
      };
      found.operationIds.add(operationId);
      byName.set(name, found);
    }
  }
  return [...byName.values()];
})();

/** A request under the API's base path; sent with the target's key unless `key` says otherwise. */
interface CaseRequest {
  method: string;
  path: string;
  /** `none` sends no `Authorization`; a string is the key sent. */
  key?: 'none' | string;
  headers?: Record<string, string>;
  /** Sent as `application/json` unless `headers` gives a `Content-Type`. */
  json?: unknown;
  /** A body sent as it is. */
  body?: string;
}

interface Answer {
  status: number;
  body: unknown;
}

type Send = (request: CaseRequest) => Promise<Answer>;

/**
 * How far a case needs the target to go: `request`, a refusal of the request itself, which every
 * target answers; `state`, an answer about the items held, which the static mock cannot give;
 * `service`, an answer about the service's own condition (its limits, its storage, its clock),
 * which only the server gives.
 */
type Kind = 'request' | 'state' | 'service';

/** The server as it is, its clock at the deprecated operation's sunset, its storage down or failing. */
type World = 'started' | 'sunset' | 'storageDown' | 'storageBug' | 'slowCreate';

interface Case {
  operationId: string;
  kind: Kind;
  world?: World;
  /** The request whose answer is the example's; `run` when more than one request makes the case. */
  request: CaseRequest;
  run?: (send: Send, target: Target) => Promise<Answer>;
}

const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}): CaseRequest => ({
  method,
  path,
  json: body,
  headers,
});
const mergePatch = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  json('PATCH', path, body, { 'Content-Type': 'application/merge-patch+json', ...headers });

const newPet = () => {
  const example = defined(jsonContent(defined(requestBody('createPet'), 'createPet body')).examples, 'examples');
  return (resolve(defined(example.NewPetMinimal, 'NewPetMinimal')) as { value: Record<string, unknown> }).value;
};
const newEndpoint = (url: string) => ({ url, events: ['pet.created'] });
/** A public address (example.com's) written as an IP literal: no name to resolve. */
const PUBLIC_URL = 'https://93.184.215.14/animal-store';

/** Sends `request` until an answer has `code`, at most `most` times (the limit read from the contract). */
async function until(send: Send, request: CaseRequest, code: string, most: number): Promise<Answer> {
  for (let sent = 0; sent < most; sent++) {
    const answer = await send(request);
    if ((answer.body as ErrorBody).code === code) return answer;
  }
  throw new Error(`${request.method} ${request.path} was not answered ${code} in ${most} requests.`);
}

const rateLimits = rateLimitRules(contract.document);
const freePlan = rateLimits.plans.free;
if (freePlan === undefined || freePlan === 'per-key') throw new Error('The contract has no fixed free plan.');
const ownerLimit = defined(
  collectionsOf(contract).find((collection) => collection.ownerLimit !== undefined)?.ownerLimit,
  'an x-owner-limit',
);
const maxBodyBytes = defined(contract.operation('createPet').maxBodyBytes, 'createPet x-max-body-bytes');

/** A new free-plan key listing pets until it is answered `code`, at most `most` times. */
function freeKeyListing(code: string, most: number): Case {
  const request = { method: 'GET', path: '/pets' };
  return {
    operationId: 'listPets',
    kind: 'service',
    request,
    run: async (send, target) => until(send, { ...request, key: await target.freeKey() }, code, most),
  };
}

/** The case of each error example, by the example's name. */
const CASES: Record<string, Case> = {
  ErrorUnauthorized: {
    operationId: 'listPets',
    kind: 'request',
    request: { method: 'GET', path: '/pets', key: 'none' },
  },
  ErrorInvalidLimit: { operationId: 'listPets', kind: 'request', request: { method: 'GET', path: '/pets?limit=101' } },
  ErrorInvalidCursor: {
    operationId: 'listPets',
    kind: 'request',
    request: { method: 'GET', path: '/pets?cursor=eyJjIjoicGV0cyIsImEiOjF9.AAAAAAAAAAAAAAAAAAAAAA' },
  },
  ErrorMissingField: { operationId: 'createPet', kind: 'request', request: json('POST', '/pets', { name: 'Rex' }) },
  ErrorUnknownField: {
    operationId: 'createPet',
    kind: 'request',
    request: json('POST', '/pets', { ...newPet(), colour: 'brown' }),
  },
  ErrorMalformedJson: {
    operationId: 'createPet',
    kind: 'request',
    request: { method: 'POST', path: '/pets', body: '{"name": "Rex"', headers: { 'Content-Type': 'application/json' } },
  },
  ErrorInvalidIdempotencyKey: {
    operationId: 'createPet',
    kind: 'request',
    request: json('POST', '/pets', newPet(), { 'Idempotency-Key': 'two words' }),
  },
  ErrorPayloadTooLarge: {
    operationId: 'createPet',
    kind: 'request',
    request: json('POST', '/pets', { name: 'x'.repeat(maxBodyBytes) }),
  },
  ErrorUnsupportedMediaType: {
    operationId: 'createPet',
    kind: 'request',
    request: { method: 'POST', path: '/pets', body: 'Rex', headers: { 'Content-Type': 'text/plain' } },
  },
  ErrorUnsupportedMergePatch: {
    operationId: 'updatePet',
    kind: 'request',
    request: { method: 'PATCH', path: '/pets/42', body: 'Rex', headers: { 'Content-Type': 'text/plain' } },
  },
  ErrorEmptyPatch: { operationId: 'updatePet', kind: 'request', request: mergePatch('/pets/42', {}) },
  ErrorInvalidPetId: { operationId: 'getPet', kind: 'request', request: { method: 'GET', path: '/pets/0' } },
  ErrorInvalidOrderId: {
    operationId: 'getOrder',
    kind: 'request',
    request: { method: 'GET', path: '/store/orders/0' },
  },
  ErrorInvalidQuantity: {
    operationId: 'createOrder',
    kind: 'request',
    request: json('POST', '/store/orders', { petId: 1, quantity: 101 }),
  },
  ErrorInvalidWebhookEndpointId: {
    operationId: 'getWebhookEndpoint',
    kind: 'request',
    request: { method: 'GET', path: '/webhook-endpoints/we_short' },
  },
  ErrorUnknownEventType: {
    operationId: 'createWebhookEndpoint',
    kind: 'request',
    request: json('POST', '/webhook-endpoints', { url: PUBLIC_URL, events: ['pet.sold'] }),
  },
  ErrorNotFound: { operationId: 'getPet', kind: 'state', request: { method: 'GET', path: '/pets/3' } },
  ErrorOrderNotFound: { operationId: 'getOrder', kind: 'state', request: { method: 'GET', path: '/store/orders/3' } },
  ErrorWebhookEndpointNotFound: {
    operationId: 'getWebhookEndpoint',
    kind: 'state',
    request: { method: 'GET', path: '/webhook-endpoints/we_3kT9qWmZx1B7vLp0aRn5Yc' },
  },
  ErrorInvalidTransition: {
    operationId: 'updatePet',
    kind: 'state',
    request: mergePatch('/pets/4', { status: 'available' }),
  },
  ErrorOrderInvalidTransition: {
    operationId: 'updateOrder',
    kind: 'state',
    request: mergePatch('/store/orders/1', { status: 'delivered' }),
  },
  ErrorPreconditionFailed: {
    operationId: 'updatePet',
    kind: 'state',
    request: mergePatch('/pets/42', { status: 'pending' }, { 'If-Match': '"5d41402abc4b2a76"' }),
  },
  ErrorUnknownPet: {
    operationId: 'createOrder',
    kind: 'state',
    request: json('POST', '/store/orders', { petId: 999, quantity: 1 }),
  },
  ErrorIdempotencyKeyReused: {
    operationId: 'createPet',
    kind: 'state',
    request: json('POST', '/pets', { ...newPet(), name: 'Another' }, { 'Idempotency-Key': 'reused-key' }),
    run: async (send, target) => {
      const first = await send(json('POST', '/pets', newPet(), { 'Idempotency-Key': 'reused-key' }));
      expect(first.status, `${target.name}: the first create`).toBe(201);
      return send(CASES.ErrorIdempotencyKeyReused?.request as CaseRequest);
    },
  },
  ErrorEndpointLimitReached: {
    operationId: 'createWebhookEndpoint',
    kind: 'state',
    request: json('POST', '/webhook-endpoints', newEndpoint(PUBLIC_URL)),
    run: (send) =>
      until(send, json('POST', '/webhook-endpoints', newEndpoint(PUBLIC_URL)), ownerLimit.code, ownerLimit.items + 1),
  },
  ErrorPrivateWebhookUrl: {
    operationId: 'createWebhookEndpoint',
    kind: 'service',
    request: json('POST', '/webhook-endpoints', newEndpoint('https://10.0.0.7/hooks')),
  },
  ErrorRateLimited: freeKeyListing('rate_limited', freePlan.perMinute + 1),
  ErrorKeyBanned: freeKeyListing('key_banned', freePlan.perMinute + rateLimits.ban.afterRefusals + 1),
  ErrorGone: { operationId: 'getPet', kind: 'service', world: 'sunset', request: { method: 'GET', path: '/pets/42' } },
  ErrorServiceUnavailable: {
    operationId: 'listPets',
    kind: 'service',
    world: 'storageDown',
    request: { method: 'GET', path: '/pets' },
  },
  ErrorInternal: {
    operationId: 'listPets',
    kind: 'service',
    world: 'storageBug',
    request: { method: 'GET', path: '/pets' },
  },
  ErrorIdempotencyKeyInProgress: {
    operationId: 'createPet',
    kind: 'service',
    world: 'slowCreate',
    request: json('POST', '/pets', newPet(), { 'Idempotency-Key': 'in-progress-key' }),
    run: async (send, target) => {
      const request = CASES.ErrorIdempotencyKeyInProgress?.request as CaseRequest;
      const first = send(request);
      await target.createStarted();
      const repeat = await send(request);
      target.finishCreates();
      expect((await first).status, `${target.name}: the first create`).toBe(201);
      return repeat;
    },
  },
};

/** One of the things the cases are brought to, in one of its worlds. */
interface Target {
  name: string;
  computes: readonly Kind[];
  send(request: CaseRequest, world: World, prefer?: string): Promise<Answer>;
  freeKey(): Promise<string>;
  /** Settles once a create has reached the storage and waits there (the `slowCreate` world). */
  createStarted(): Promise<void>;
  finishCreates(): void;
}

function headersOf(request: CaseRequest, key: string | undefined, prefer: string | undefined): Headers {
  const headers = new Headers(request.headers);
  const sentKey = request.key ?? key;
  if (sentKey !== undefined && sentKey !== 'none') headers.set('Authorization', `Bearer ${sentKey}`);
  if (request.json !== undefined && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  if (prefer !== undefined) headers.set('Prefer', prefer);
  return headers;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const bodyOf = (request: CaseRequest) =>
  request.body ?? (request.json === undefined ? undefined : JSON.stringify(request.json));

/** The server, in-process, a fresh one per world, each seeded with the contract's examples. */
function serverTarget(): Target & { close(): Promise<void> } {
  const worlds = new Map<World, Promise<TestApp>>();
  let started: () => void = () => {};
  let createStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  let finish: () => void = () => {};
  const creatable = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const open = async (world: World) => {
    const app = await createTestApp({ logLevel: 'silent' });
    seedSqlite(app.db, contract);
    if (world === 'sunset') app.clock.set(deprecationOf(contract.operation('getPet')).sunsetAt);
    if (world === 'storageDown') failStorage(app.storage, 'unavailable');
    if (world === 'storageBug') failStorage(app.storage, 'unexpected');
    if (world === 'slowCreate') {
      const pets = app.collections('pets');
      const create = pets.createOnce.bind(pets);
      pets.createOnce = async (...args) => {
        started();
        await creatable;
        return create(...args);
      };
    }
    return app;
  };
  const worldOf = (world: World) => {
    const found = worlds.get(world) ?? open(world);
    worlds.set(world, found);
    return found;
  };
  return {
    name: 'server',
    computes: ['request', 'state', 'service'],
    async send(request, world) {
      const app = await worldOf(world);
      const init: RequestInit = { method: request.method, headers: headersOf(request, app.apiKey, undefined) };
      const body = bodyOf(request);
      if (body !== undefined) init.body = body;
      return answerOf(await app.app.request(`/v1${request.path}`, init));
    },
    async freeKey() {
      return (await (await worldOf('started')).keys.create({ plan: 'free' })).secret;
    },
    createStarted: () => createStarted,
    finishCreates: () => {
      finish();
      createStarted = Promise.resolve();
    },
    async close() {
      for (const app of worlds.values()) (await app).close();
    },
  };
}

/** A mock as `npm run mock` or `npm run mock:stateful` starts it, on a free port. */
function mockTarget(
  name: string,
  computes: readonly Kind[],
  start: () => Promise<{ url: string; close(): Promise<void> }>,
  key: string,
) {
  const running = start();
  const unsupported = () => {
    throw new Error(`${name} is asked for the example in this case.`);
  };
  return {
    name,
    computes,
    async send(request: CaseRequest, _world: World, prefer?: string) {
      const { url } = await running;
      const init: RequestInit = { method: request.method, headers: headersOf(request, key, prefer) };
      const body = bodyOf(request);
      if (body !== undefined) init.body = body;
      return answerOf(await fetch(`${url}/v1${request.path}`, init));
    },
    freeKey: unsupported,
    createStarted: unsupported,
    finishCreates: unsupported,
    close: async () => (await running).close(),
  } satisfies Target & { close(): Promise<void> };
}

const targets = [
  serverTarget(),
  mockTarget('the static mock', ['request'], () => startMock({ log: () => {} }), 'ask_any_key_works_with_the_mock'),
  mockTarget(
    'the stateful mock',
    ['request', 'state'],
    () => startStatefulMock({ logLevel: 'silent' }),
    STATEFUL_MOCK_KEY,
  ),
];
afterAll(() => Promise.all(targets.map((target) => target.close())));

describe('the error examples of the contract', () => {
  it('each have a case here, and every case is of an example the contract has', () => {
    expect(Object.keys(CASES).sort()).toEqual(errorExamples.map(({ name }) => name).sort());
  });

  for (const example of errorExamples) {
    const found = CASES[example.name];
    if (found === undefined) continue;
    it(`${example.name} is an answer of ${found.operationId}, which its case calls`, () => {
      expect([...example.operationIds]).toContain(found.operationId);
    });
    for (const target of targets) {
      const computed = target.computes.includes(found.kind);
      const how = computed ? 'answers its case' : `answers Prefer: example=${example.name}`;
      it(`${example.name}: ${target.name} ${how} with the example's status and body`, async () => {
        const world = found.world ?? 'started';
        const send: Send = computed
          ? (request) => target.send(request, world)
          : (request) => target.send(request, world, `code=${example.value.status}, example=${example.name}`);
        const answer = computed && found.run ? await found.run(send, target) : await send(found.request);
        expect(answer).toEqual({ status: example.value.status, body: example.value });
      });
    }
  }
});
