// The mock: the app core (routing, validation, paging, errors and rate-limit headers) serving every
// operation of the contract from the contract alone, with the mock's additions in front of it:
// scenarios, delays, faults, and the `/__mock/*` endpoints that switch them. The contract's
// collections are served by the collection layer on memory stores seeded with the contract's
// examples; any other operation answers its declared success response with its first example.
// No Node module: the client package's MSW handlers run this app in browsers too. The connection
// faults (`drop`, `truncate`) need a socket, which only the mock servers hand in.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { Hono } from 'hono';
import type { Contract, ContractOperation } from '../../contract/contract.ts';
import { answerErrors } from '../../core/answer-errors.ts';
import { type AppDeps, createApp, type OperationHandlers } from '../../core/app.ts';
import { systemClock } from '../../core/clock.ts';
import { collectionHandler, type RouteHandler } from '../../core/collections/handlers.ts';
import { type MemoryStoreOptions, memoryStores } from '../../core/collections/memory-store.ts';
import type { Item } from '../../core/collections/store.ts';
import { ApiError } from '../../core/errors.ts';
import type { AppEnv } from '../../core/http-types.ts';
import { MemoryIdempotencyStore } from '../../core/idempotency/memory-store.ts';
import { readJsonBody } from '../../core/json-body.ts';
import type { Logger } from '../../core/logger.ts';
import { type CorsExtras, contractCors } from '../../core/middleware/cors.ts';
import { requireJsonContentType } from '../../core/middleware/json-content-type.ts';
import { answerNotFound } from '../../core/not-found.ts';
import { createCursorCodec } from '../../core/pagination/cursor.ts';
import { answerChosen, type ChoiceBindings } from './chosen-answer.ts';
import { type DeclaredAnswers, exampleAnswer } from './declared-answers.ts';
import { delayMs } from './delay.ts';
import { ChoiceError, type MockSettings, readRequestChoice } from './request-choice.ts';
import { type Scenario, scenarioNamed } from './scenarios.ts';

/** What only a mock server with a socket can do to a connection; the browser mocks have none. */
export interface ConnectionFaults {
  /** Closes the connection with no answer. */
  drop(): void;
  /** Sends the headers and half of the body, then closes the connection. */
  truncate(response: Response): Promise<Response>;
}

export interface MockAppOptions extends Pick<AppDeps, 'keys' | 'limiters'> {
  contract: Contract;
  /** The items each collection holds (by collection name) in a scenario with data, after a reset too. */
  seeds: ReadonlyMap<string, readonly Item[]>;
  /** Keep created items, so they are listed and fetched until a reset (the stateful mocks). */
  keepsCreated?: MemoryStoreOptions['keepsCreated'];
  /** Answers the response a scenario, a fault or the request names. */
  answers: DeclaredAnswers;
  /** The scenarios, the one in force (checked to be one of them) and the start's `--delay`. */
  settings: MockSettings;
  /** The scenario `POST /__mock/reset` returns to: the start's; `settings.scenario` when not given. */
  startScenario?: string;
  /** Origins a browser may call the mock from. */
  corsOrigins: NonNullable<AppDeps['corsOrigins']>;
  /** Also done by `POST /__mock/reset`: the rate-limit windows back to empty, for one. */
  onReset?(): void;
  /** The connection of a request, from the `env` the server passes with it, where there is one. */
  connectionOf?(env: unknown): ConnectionFaults | undefined;
  logger: Logger;
}

/**
 * The delay the mock added to an answer, in milliseconds, so a developer (or a test) sees why it
 * came late, and how late it was meant to come, whatever else slowed it.
 */
export const DELAY_HEADER = 'X-Mock-Delay';

/**
 * A page may pick a scenario with the `mock-scenario` cookie (sent only with credentials) or
 * `Prefer`, and read the delay the mock added.
 */
const MOCK_CORS: CorsExtras = { credentials: true, allowHeaders: ['Prefer'], exposeHeaders: [DELAY_HEADER] };

export interface MockApp {
  /** Answers a request; `env` is the Node server's bindings (its socket, for the connection faults), when served by one. */
  fetch(request: Request, env?: unknown): Promise<Response>;
  /** The scenario `PUT /__mock/scenario` chose, or else the start's. */
  readonly settings: MockSettings;
}

export function createMockApp(options: MockAppOptions): MockApp {
  const { contract, answers, settings } = options;
  const startScenario = options.startScenario ?? settings.scenario;
  scenarioNamed(settings.scenarios, startScenario);
  scenarioNamed(settings.scenarios, settings.scenario);
  const cursors = createCursorCodec(crypto.getRandomValues(new Uint8Array(32)), (key, message) =>
    hmac(sha256, key, message),
  );
  const keepsCreated = options.keepsCreated ?? false;
  // A mock that keeps what is created replays a repeated `Idempotency-Key` as the service does; one
  // that keeps nothing answers every create from the contract alike.
  const idempotency = keepsCreated
    ? { examples: new MemoryIdempotencyStore(), none: new MemoryIdempotencyStore() }
    : undefined;
  const storeSets = {
    examples: memoryStores(options.seeds, { keepsCreated, idempotency: idempotency?.examples }),
    none: memoryStores(new Map([...options.seeds.keys()].map((name) => [name, []])), {
      keepsCreated,
      idempotency: idempotency?.none,
    }),
  };
  const appFor = (data: Scenario['data']) => {
    const stores = storeSets[data];
    const handlers: Record<string, RouteHandler> = {};
    for (const operation of contract.operations) {
      handlers[operation.operationId] =
        collectionHandler(
          {
            contract,
            cursors,
            stores: (name) => {
              const store = stores.get(name);
              if (!store) throw new Error(`The mock holds no collection ${name}.`);
              return store;
            },
          },
          operation.operationId,
        ) ?? declaredSuccess(operation);
    }
    return createApp({
      ...options,
      handlers: handlers satisfies OperationHandlers,
      clock: systemClock,
      idempotency: idempotency && { store: idempotency[data], sha256: (message) => sha256(message) },
      // Requests without a key are counted by address; a mock on a developer's machine has one.
      clientAddress: () => 'local',
      corsExtras: MOCK_CORS,
      beforeHandler: (operation) => answerChosen(operation, answers),
    });
  };
  const apps: Record<Scenario['data'], Hono<AppEnv>> = { examples: appFor('examples'), none: appFor('none') };
  const admin = adminRoutes(options, () => {
    for (const stores of Object.values(storeSets)) for (const store of stores.values()) store.reset();
    for (const kept of Object.values(idempotency ?? {})) kept.clear();
    options.onReset?.();
    settings.scenario = startScenario;
  });

  const fetch: MockApp['fetch'] = async (request, env) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__mock/')) return admin.fetch(request, env);
    let choice: ReturnType<typeof readRequestChoice>['choice'] | undefined;
    let forwarded = request;
    let bindings: ChoiceBindings;
    try {
      const read = readRequestChoice(url, request.headers, settings);
      choice = read.choice;
      if (read.apiUrl !== url) forwarded = new Request(read.apiUrl, request);
      bindings = { choice };
    } catch (error) {
      if (!(error instanceof ChoiceError)) throw error;
      bindings = { choice: error };
    }
    const delay = choice?.delay && delayMs(choice.delay);
    if (delay) await sleep(delay);
    const connection = options.connectionOf?.(env);
    if (choice?.fault === 'drop' && connection) {
      connection.drop();
      // Never written: the connection is gone.
      return new Response(null, { status: 500 });
    }
    const app = apps[choice?.scenario.data ?? 'examples'];
    const answered = await app.fetch(forwarded, { ...(env as object | undefined), ...bindings });
    const response = delay ? withHeader(answered, DELAY_HEADER, String(delay)) : answered;
    return choice?.fault === 'truncate' && connection ? connection.truncate(response) : response;
  };
  return { fetch, settings };
}

/**
 * An operation the contract declares outside any collection: its first success response with that
 * response's first named example; a create (a 201 to a request with a body) carries back what was
 * sent, where the example has those fields.
 */
function declaredSuccess(operation: ContractOperation): RouteHandler {
  const status = Number(Object.keys(operation.responses).find((code) => code.startsWith('2')) ?? 200);
  return async (c, input: { body?: unknown }) => {
    const answer = exampleAnswer(operation, status);
    for (const [name, value] of Object.entries(answer.headers)) if (!/^x-ratelimit-/i.test(name)) c.header(name, value);
    const sent = input.body;
    const example = answer.body;
    const body =
      status === 201 && isObject(example) && isObject(sent)
        ? { ...example, ...Object.fromEntries(Object.entries(sent).filter(([field]) => field in example)) }
        : example;
    if (body === undefined) return c.body(null, status as 204);
    return c.json(body, status as 200);
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `/__mock/*`: the scenario in force, the scenarios known, and a reset. No key needed. */
function adminRoutes(options: MockAppOptions, reset: () => void): Hono<AppEnv> {
  const { settings } = options;
  const admin = new Hono<AppEnv>();
  admin.use(contractCors(options.contract, options.corsOrigins, ['GET', 'PUT', 'POST'], MOCK_CORS));
  admin.get('/__mock/scenarios', (c) =>
    c.json(
      [...settings.scenarios.values()].map(({ name, description }) => ({ name, description })),
      200,
    ),
  );
  admin.get('/__mock/scenario', (c) => c.json({ name: settings.scenario }, 200));
  // JSON only: a web page can send a form or text/plain to any origin without asking (no
  // preflight), so a body of those types, or none, would let any page switch or reset the mock.
  admin.on(['PUT', 'POST'], '/__mock/*', requireJsonContentType());
  admin.put('/__mock/scenario', async (c) => {
    const body = await readJsonBody(c);
    const name = (body as { name?: unknown } | null)?.name;
    const known = [...settings.scenarios.keys()].join(', ');
    if (typeof name !== 'string' || !settings.scenarios.has(name)) {
      const what =
        typeof name === 'string' ? `The scenario "${name}" is unknown` : 'The body must be {"name": "<scenario>"}';
      throw new ApiError(400, 'validation_failed', `${what}; the mock knows ${known}.`);
    }
    settings.scenario = name;
    return c.body(null, 204);
  });
  admin.post('/__mock/reset', async (c) => {
    reset();
    return c.body(null, 204);
  });
  admin.notFound(answerNotFound);
  admin.onError(answerErrors(options.logger));
  return admin;
}
