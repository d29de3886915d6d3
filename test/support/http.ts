import { expect } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import type { ErrorBody } from '../../core/errors.ts';
import type { NewApiKey } from '../../core/keys/key-store.ts';
import type { Pet, PetStatus } from '../../generated/openapi.ts';
import { defined } from './defined.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts';
import { escapeRegExp } from './text.ts';

/** Sends one request to an app; Hono's `app.request` may answer synchronously. */
export type Send = (app: TestApp) => Response | Promise<Response>;

const contract = loadContract().document as unknown as {
  components: { schemas: { Error: { properties: { code: { enum: string[] } } } } };
};

/** The `code` values the contract documents on its Error schema. */
export const DOCUMENTED_ERROR_CODES: readonly string[] = contract.components.schemas.Error.properties.code.enum;

/** The HTTP status the contract gives each code (`x-error-codes`), which the app answers it with. */
export const ERROR_CODE_STATUSES: ReadonlyMap<string, number> = new Map(
  errorCodes(contract).map(({ code, status }) => [code, status]),
);

export const DEPRECATION_HEADERS = {
  Deprecation: '@1795219200',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
} as const;

/** The sunset of `GET /pets/{petId}`, from which it answers 410. */
export const SUNSET = '2030-12-05T00:00:00Z';

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

export function expectJsonContentType(response: Response): void {
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json\s*(;|$)/);
}

/**
 * Checks the one Error body of every error response: `{code, message, status}`, `status`
 * repeating the HTTP status, and nothing else except on `validation_failed`, which lists every
 * problem in `details` (`{in, name, message}` each), the first being the one `message` names.
 */
export function expectErrorBody(body: ErrorBody, status: number, label?: string): void {
  const { details, ...fields } = body;
  expect(fields, label).toEqual({ code: expect.any(String), message: expect.stringMatching(/\S/), status });
  if (body.code !== 'validation_failed') {
    expect(details, label).toBeUndefined();
    return;
  }
  expect(details?.length, label).toBeGreaterThan(0);
  const shape = {
    in: expect.stringMatching(/^(query|path|body)$/),
    name: expect.any(String),
    message: expect.stringMatching(/\S/),
  };
  const problems = defined(details, `the details of ${label ?? 'a validation_failed answer'}`);
  for (const detail of problems) expect(detail, label).toEqual(shape);
  expect(problems[0]?.message, label).toBe(body.message);
}

/** Checks the status, code and Error body of an error response and, when `names` is given, that the message names it. */
export async function expectError(
  response: Response,
  status: number,
  code: string,
  names?: string,
): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  expect({ status: response.status, code: body.code }).toEqual({ status, code });
  expectJsonContentType(response);
  expectErrorBody(body, status);
  if (names !== undefined) expect(body.message).toMatch(new RegExp(`(?<![\\w-])${escapeRegExp(names)}(?![\\w-])`));
  return body;
}

/** POST /v1/pets with a body sent exactly as written, so tests control every byte of the JSON. */
export async function postRaw(t: TestApp, body: string, contentType = 'application/json'): Promise<Response> {
  return await t.request('/v1/pets', { method: 'POST', body, headers: { 'Content-Type': contentType } });
}

async function addPet(t: TestApp, pet: { name: string; categoryId: number; status?: PetStatus }): Promise<Pet> {
  const response = await t.request('/v1/pets', { method: 'POST', json: pet });
  expect(response.status).toBe(201);
  return (await response.json()) as Pet;
}

/** Adds one pet per status given, in that order, through the API. */
export async function addPets(t: TestApp, statuses: readonly PetStatus[]): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (const [index, status] of statuses.entries()) {
    pets.push(await addPet(t, { name: `Pet ${index + 1}`, categoryId: 1 + (index % 5), status }));
  }
  return pets;
}

/** `count` statuses cycling through available, pending, sold. */
export function cyclingStatuses(count: number): PetStatus[] {
  const statuses: PetStatus[] = ['available', 'pending', 'sold'];
  return Array.from({ length: count }, (_, index) => defined(statuses[index % statuses.length], 'a status'));
}

/**
 * A key with small limits of its own (an enterprise key's), for a test that needs a used-up window
 * and none of a plan's numbers: a few requests use its minute up.
 */
export const SMALL_WINDOW_KEY = { plan: 'enterprise', perMinute: 3, perDay: 100 } as const satisfies NewApiKey;

/**
 * Sends the `perMinute` requests of the caller's per-minute window, each answered but not
 * refused; the next request is refused.
 */
export async function useUpMinuteWindow(t: TestApp, perMinute: number, path = '/v1/pets'): Promise<void> {
  for (let sent = 0; sent < perMinute; sent++) {
    const response = await t.request(path);
    expect(response.status).not.toBe(429);
  }
}

/** A fresh app per case, so a changed clock or a used-up window stays within its case. */
export async function withApp<T>(body: (app: TestApp) => Promise<T>, options?: TestAppOptions): Promise<T> {
  const app = await createTestApp(options);
  try {
    return await body(app);
  } finally {
    app.close();
  }
}
