// The mock: the service's own app (its routing, validation, paging, errors and rate-limit headers)
// on a mock's storage and keys, with the mock's additions in front of it: scenarios, delays,
// faults, and the `/__mock/*` endpoints that switch them. No Node module at run time: the client
// package's MSW handlers run this app in browsers too (its build stands in for `Buffer`). The
// connection faults (`drop`, `truncate`) need the Node socket of the mock servers; without one
// they are not done.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Hono } from 'hono';
import type { Contract } from '../contract/index.ts';
import { answerErrors } from '../core/answer-errors.ts';
import { type AppDeps, createApp } from '../core/app.ts';
import { systemClock } from '../core/clock.ts';
import { ApiError } from '../core/errors.ts';
import type { AppEnv } from '../core/http-types.ts';
import { readJsonBody } from '../core/json-body.ts';
import type { Logger } from '../core/logger.ts';
import { type CorsExtras, corsFor } from '../core/middleware/cors.ts';
import { answerNotFound } from '../core/not-found.ts';
import type { PetStore } from '../server/store/pet-store.ts';
import { answerChosen, type ChoiceBindings } from './chosen-answer.ts';
import { CollectionStore } from './collection-store.ts';
import type { DeclaredAnswers } from './declared-answers.ts';
import { delayMs } from './delay.ts';
import { ChoiceError, type MockSettings, readRequestChoice } from './request-choice.ts';
import { type Scenario, scenarioNamed } from './scenarios.ts';

export interface MockAppOptions extends Pick<AppDeps, 'keys' | 'limiters'> {
  contract: Contract;
  /** The pets the mock serves (in a scenario without pets, it serves none). */
  pets: PetStore;
  /** Answers the response a scenario, a fault or the request names. */
  answers: DeclaredAnswers;
  /** The scenarios, the one in force (checked to be one of them) and the start's `--delay`. */
  settings: MockSettings;
  /** The scenario `POST /__mock/reset` returns to: the start's; `settings.scenario` when not given. */
  startScenario?: string;
  /** Origins a browser may call the mock from. */
  corsOrigins: NonNullable<AppDeps['corsOrigins']>;
  /** `POST /__mock/reset`: the data back to its seed. */
  resetData(): Promise<void>;
  logger: Logger;
}

/** A page may pick a scenario with the `mock-scenario` cookie (sent only with credentials) or `Prefer`. */
const MOCK_CORS: CorsExtras = { credentials: true, allowHeaders: ['Prefer'] };

export interface MockApp {
  /** Answers a request; `env` is the Node server's bindings (its socket, for the connection faults), when served by one. */
  fetch(request: Request, env?: unknown): Promise<Response>;
  /** The scenario `PUT /__mock/scenario` chose, or else the start's. */
  readonly settings: MockSettings;
}

export function createMockApp(options: MockAppOptions): MockApp {
  const { answers, settings } = options;
  const startScenario = options.startScenario ?? settings.scenario;
  scenarioNamed(settings.scenarios, startScenario);
  scenarioNamed(settings.scenarios, settings.scenario);
  const cursorSecret = Buffer.from(crypto.getRandomValues(new Uint8Array(32)));
  const appFor = (pets: PetStore) =>
    createApp({
      ...options,
      pets,
      clock: systemClock,
      cursorSecret,
      // Requests without a key are counted by address; a mock on a developer's machine has one.
      clientAddress: () => 'local',
      corsExtras: MOCK_CORS,
      beforeHandler: (operation) => answerChosen(operation, answers),
    });
  const apps: Record<Scenario['pets'], Hono<AppEnv>> = {
    examples: appFor(options.pets),
    none: appFor(new CollectionStore([])),
  };
  const admin = adminRoutes(options, () => {
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
    if (choice?.delay) await sleep(delayMs(choice.delay));
    const socket = (env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
    if (choice?.fault === 'drop' && socket) {
      socket.destroy();
      // Never written: the connection is gone.
      return new Response(null, { status: 500 });
    }
    const app = choice?.scenario.pets === 'none' ? apps.none : apps.examples;
    const response = await app.fetch(forwarded, { ...(env as object | undefined), ...bindings });
    return choice?.fault === 'truncate' && socket ? truncated(response, socket) : response;
  };
  return { fetch, settings };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The response's headers, with the length of its whole body, and the first half of the body;
 * then the connection is closed, so the client sees the body end early.
 */
async function truncated(response: Response, socket: Socket): Promise<Response> {
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set('Content-Length', String(body.length));
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      // Called as soon as the half is taken, before the adapter writes it: end after the write.
      if (sent) return void setImmediate(() => socket.end());
      sent = true;
      controller.enqueue(body.subarray(0, Math.floor(body.length / 2)));
    },
  });
  return new Response(stream, { status: response.status, headers });
}

/** `/__mock/*`: the scenario in force, the scenarios known, and a reset. No key needed. */
function adminRoutes(options: MockAppOptions, resetScenario: () => void): Hono<AppEnv> {
  const { settings } = options;
  const admin = new Hono<AppEnv>();
  admin.use(corsFor(options.corsOrigins, ['GET', 'PUT', 'POST'], MOCK_CORS));
  admin.get('/__mock/scenarios', (c) =>
    c.json(
      [...settings.scenarios.values()].map(({ name, description }) => ({ name, description })),
      200,
    ),
  );
  admin.get('/__mock/scenario', (c) => c.json({ name: settings.scenario }, 200));
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
    await options.resetData();
    resetScenario();
    return c.body(null, 204);
  });
  admin.notFound(answerNotFound);
  admin.onError(answerErrors(options.logger));
  return admin;
}
