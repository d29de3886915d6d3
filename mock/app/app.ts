// The mock: the app core (routing, validation, paging, errors and rate-limit headers) serving every
// operation of the contract from the contract alone, with the mock's additions in front of it:
// scenarios, delays, faults, and the `/__mock/*` endpoints that switch them. Assembled here from its
// parts, each in a module of its own: who may call it (access.ts), the data of each scenario
// (stores.ts), the app on that data (contract-app.ts) and the admin endpoints (admin.ts).
// No Node module: the client package's MSW handlers run this app in browsers too. The connection
// faults (`drop`, `truncate`) need a socket, which only the mock servers hand in.
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Hono } from 'hono';
import { collectionsOf } from '../../contract/collections.ts';
import type { Contract } from '../../contract/contract.ts';
import type { AppDeps } from '../../core/app.ts';
import { systemClock } from '../../core/clock.ts';
import type { Item } from '../../core/collections/store.ts';
import { ApiError } from '../../core/errors.ts';
import type { AppEnv } from '../../core/http-types.ts';
import type { Logger } from '../../core/logger.ts';
import type { CorsExtras } from '../../core/middleware/cors.ts';
import { createCursorCodec } from '../../core/pagination/cursor.ts';
import { type MockAccess, mockAccess } from './access.ts';
import { adminRoutes } from './admin.ts';
import type { ChoiceBindings } from './chosen-answer.ts';
import { contractApp } from './contract-app.ts';
import type { DeclaredAnswers } from './declared-answers.ts';
import { delayMs } from './delay.ts';
import { type MockSettings, readRequestChoice } from './request-choice.ts';
import { type Scenario, scenarioNamed } from './scenarios.ts';
import { mockStores } from './stores.ts';
import type { MockWebhooks } from './webhooks.ts';

/** What only a mock server with a socket can do to a connection; the browser mocks have none. */
export interface ConnectionFaults {
  /** Closes the connection with no answer. */
  drop(): void;
  /** Sends the headers and half of the body, then closes the connection. */
  truncate(response: Response): Promise<Response>;
}

export interface MockAppOptions {
  contract: Contract;
  /** The items each collection holds (by collection name) in a scenario with data, after a reset too. */
  seeds: ReadonlyMap<string, readonly Item[]>;
  /** Keep created items, so they are listed and fetched until a reset (the stateful mocks). */
  keepsCreated?: boolean;
  /** Who may call the mock and how its windows count: any key, never refused, by default. */
  access?: MockAccess;
  /** Answers the response a scenario, a fault or the request names. */
  answers: DeclaredAnswers;
  /** The scenarios, the one in force (checked to be one of them) and the start's `--delay`. */
  settings: MockSettings;
  /** The scenario `POST /__mock/reset` returns to: the start's; `settings.scenario` when not given. */
  startScenario?: string;
  /** Origins a browser may call the mock from. */
  corsOrigins: NonNullable<AppDeps['corsOrigins']>;
  /** The connection of a request, from the `env` the server passes with it, where there is one. */
  connectionOf?(env: unknown): ConnectionFaults | undefined;
  logger: Logger;
  /** Endpoints kept and events sent (the stateful mock); the endpoint operations answered from the contract otherwise. */
  webhooks?: MockWebhooks;
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
  const { contract, settings } = options;
  const startScenario = options.startScenario ?? settings.scenario;
  scenarioNamed(settings.scenarios, startScenario);
  scenarioNamed(settings.scenarios, settings.scenario);
  const access = mockAccess(options.access ?? {}, contract, systemClock);
  const { webhooks } = options;
  const stores = mockStores(
    collectionsOf(contract),
    options.seeds,
    options.keepsCreated ?? false,
    webhooks && ((collection, change, item) => webhooks.written(collection, change, item)),
  );
  const cursors = createCursorCodec(crypto.getRandomValues(new Uint8Array(32)), (key, message) =>
    hmac(sha256, key, message),
  );
  const appOf = (data: Scenario['data']) =>
    contractApp({ ...options, data: stores.of(data), cursors, access, cors: MOCK_CORS });
  const apps: Record<Scenario['data'], Hono<AppEnv>> = { examples: appOf('examples'), none: appOf('none') };
  const admin = adminRoutes({
    ...options,
    cors: MOCK_CORS,
    webhooks,
    reset: () => {
      stores.reset();
      webhooks?.reset();
      access.reset();
      settings.scenario = startScenario;
    },
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
      if (!(error instanceof ApiError)) throw error;
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

function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
