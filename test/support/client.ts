import { expect } from 'vitest';
import {
  type AnimalStoreClientOptions,
  createAnimalStoreClient,
  type ErrorBody,
  type Pet,
} from '../../client/index.ts';
import { defined } from './defined.ts';
import { createTestApp, type TestAppOptions } from './test-app.ts';

export const BASE_URL = 'http://localhost/v1';
const STATUSES = ['available', 'pending', 'sold'] as const;

/**
 * The real app in-process and a client of it; `sent` holds every request that reached the app,
 * so tests can count sends. Deprecation notices go to a no-op unless the test gives a handler.
 */
export async function clientOfTestApp(
  appOptions: TestAppOptions = {},
  clientOptions: Partial<AnimalStoreClientOptions> = {},
) {
  const app = await createTestApp(appOptions);
  const sent: Request[] = [];
  const client = createAnimalStoreClient({
    baseUrl: BASE_URL,
    apiKey: app.apiKey,
    fetch: async (request) => {
      sent.push(request);
      return await app.app.fetch(request);
    },
    onDeprecation: () => {},
    ...clientOptions,
  });
  return { app, client, sent };
}

export type ClientOfTestApp = Awaited<ReturnType<typeof clientOfTestApp>>;

/** Adds `count` pets through the client, statuses cycling available, pending, sold. */
export async function addPets({ client }: ClientOfTestApp, count: number): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (let index = 0; index < count; index++) {
    const body = {
      name: `Pet ${index + 1}`,
      categoryId: 1 + (index % 5),
      status: defined(STATUSES[index % STATUSES.length], 'a status'),
    };
    const { data, response } = await client.POST('/pets', { body });
    expect(response.status).toBe(201);
    pets.push(defined(data, `the created pet ${index + 1}`));
  }
  return pets;
}

interface SentRequest {
  method: string;
  url: string;
  authorization: string | null;
  idempotencyKey: string | null;
  body: string;
}

/**
 * A fetch that answers from a script, in order: a Response is returned, an Error is thrown (as
 * fetch does on a network failure). A request beyond the script fails the test.
 */
export function scriptedFetch(...script: Array<Response | Error>) {
  const queue = [...script];
  const sent: SentRequest[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.get('Authorization'),
      idempotencyKey: request.headers.get('Idempotency-Key'),
      body: await request.text(),
    });
    const next = queue.shift();
    if (next === undefined) throw new Error(`Unscripted request: ${request.method} ${request.url}`);
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

export const pet: Pet = { id: 1, name: 'Rex', categoryId: 3, status: 'available' };

export function tooManyRequests(code: 'rate_limited' | 'key_banned', retryAfterSeconds?: number): Response {
  const body: ErrorBody = { code, message: 'Retry later.', status: 429 };
  return jsonResponse(body, 429, retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) });
}

/** A sleep that returns at once and records each wait it was asked for. */
export function recordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}
