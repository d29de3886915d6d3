import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import type { ErrorCode } from '../../../core/errors.ts';
import type { NewPet, Pet } from '../../../generated/openapi.ts';
import { defined } from '../../support/defined.ts';
import {
  DEPRECATION_HEADERS,
  expectError,
  expectJsonContentType,
  RATE_LIMIT_HEADERS,
  type Send,
} from '../../support/http.ts';
import { nextLink } from '../../support/link-header.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';
import { undeclaredMethods, unknownPaths } from '../../support/unknown-paths.ts';

/**
 * A table of hostile requests, one row per input. Each row checks the documented status, the
 * Error body and its code, and that the store is exactly as before: a refused request stores
 * nothing, consumes no id, and leaves Object.prototype alone.
 */

/** The largest body createPet reads, as the contract's `x-max-body-bytes` sets it. */
const MAX_BODY_BYTES = defined(loadContract().operation('createPet').maxBodyBytes, 'the body limit of createPet');

let t: TestApp;
/** A cursor the service issued for `limit=1` and no status filter, for the tampering rows. */
let issuedCursor: string;
let rowNumber = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const name of ['Rex', 'Tom', 'Kit']) {
    const response = await t.request('/v1/pets', { method: 'POST', json: { name, categoryId: 1 } });
    expect(response.status).toBe(201);
  }
  const page = await t.request('/v1/pets?limit=1');
  const link = defined(nextLink(page), 'a next link on the first page');
  issuedCursor = defined(new URL(link, 'http://localhost').searchParams.get('cursor'), `a cursor in ${link}`);
  expect(issuedCursor).toBeTruthy();
});
afterAll(() => t.close());

interface Expected {
  status: number;
  /** The Error code; absent for a request the service must accept. */
  code?: ErrorCode;
  /** Something the Error message must name: a field, a parameter, a header. */
  names?: string | RegExp;
  headers?: Readonly<Record<string, string>>;
  /** The `Allow` header of a 405 lists these methods and not the one that was refused. */
  allow?: { methods: string[]; refused: string };
  /** For a 201: the stored pet, without its id (which must be the next one). */
  stored?: Required<NewPet>;
  /** For a HEAD: the GET of the same request must answer this status and code, with the body HEAD omits. */
  asGet?: Send;
}

interface Row {
  title: string;
  send: Send;
  expected: Expected;
}

type Extras = Omit<Expected, 'status' | 'code'>;

function refused(input: string, status: number, code: ErrorCode, send: Send, extras: Extras = {}): Row {
  return { title: `${input} → ${status} ${code}`, send, expected: { status, code, ...extras } };
}

function accepted(input: string, status: 200 | 201, send: Send, extras: Extras = {}): Row {
  return { title: `${input} → ${status}`, send, expected: { status, ...extras } };
}

const VALID_PET: Required<NewPet> = { name: 'Rex', categoryId: 1, status: 'available' };
const VALID_BODY = JSON.stringify({ name: 'Rex', categoryId: 1 });
const CHALLENGE = { 'WWW-Authenticate': 'Bearer' } as const;
const AUTH_PROBLEM = /Authorization|API key/;

/** UTF-8 text with raw bytes spliced in, so a body can carry bytes no JavaScript string encodes to. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((part) =>
    typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part),
  );
  const joined = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/**
 * POST /v1/pets with the test key and the body exactly as given. A `Uint8Array` body with no
 * Content-Type goes out with none (a string body would get `text/plain` from the Fetch API).
 */
function post(
  body: string | Uint8Array,
  contentType: string | null = 'application/json',
  init: RequestInit = {},
): Send {
  const headers = new Headers(init.headers);
  if (contentType !== null) headers.set('Content-Type', contentType);
  return (app) => app.request('/v1/pets', { ...init, method: 'POST', body, headers });
}

const postJson = (value: unknown) => post(JSON.stringify(value));
const withCategoryId = (text: string) => post(`{"name":"Rex","categoryId":${text}}`);
const get =
  (path: string, init: RequestInit = {}): Send =>
  (app) =>
    app.request(path, init);
const head =
  (path: string, init: RequestInit = {}): Send =>
  (app) =>
    app.request(path, { ...init, method: 'HEAD' });

/** Sends without the test key: with the given Authorization values (appended in order), or none. */
function as(authorizations: string[], path: string, init: RequestInit = {}): Send {
  return (app) => {
    const headers = new Headers(init.headers);
    for (const value of authorizations) headers.append('Authorization', value);
    return app.app.request(path, { ...init, headers });
  };
}

function streamOf(body: Uint8Array, chunkSize = 4096): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close();
      controller.enqueue(body.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

/** A valid NewPet padded with trailing spaces (valid JSON) to exactly `size` bytes. */
function paddedPet(size: number): Uint8Array {
  return new TextEncoder().encode(VALID_BODY + ' '.repeat(size - VALID_BODY.length));
}

function postWithContentLength(body: Uint8Array): Send {
  return (app) =>
    app.request('/v1/pets', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
    });
}

function postStreamed(body: Uint8Array): Send {
  return (app) =>
    app.request('/v1/pets', {
      method: 'POST',
      body: streamOf(body),
      headers: { 'Content-Type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
}

/** Every pet in the store, read through the store itself rather than the API under test. */
async function storedPets(app: TestApp): Promise<Pet[]> {
  const all: Pet[] = [];
  let after = 0;
  for (;;) {
    const page = await app.pets.list({ limit: 100, after });
    all.push(...page.items);
    if (!page.hasMore || page.position === undefined) return all;
    after = page.position;
  }
}

function expectNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(probe.name).toBeUndefined();
  expect(probe.categoryId).toBeUndefined();
}

async function runRow({ send, expected }: Row): Promise<void> {
  const names = typeof expected.names === 'string' ? expected.names : undefined;
  // A fresh client address per row: the rows without a valid key must not use up one
  // address's free-plan window and turn later rows into 429s.
  t.setClientAddress(`2001:db8::${(++rowNumber).toString(16)}`);
  const before = await storedPets(t);
  const lastId = defined(before.at(-1), 'a stored pet').id;

  const response = await send(t);
  for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toMatch(/^\d+$/);
  for (const [name, value] of Object.entries(expected.headers ?? {}))
    expect(response.headers.get(name), name).toBe(value);
  if (expected.allow) {
    const allow = (response.headers.get('Allow') ?? '').split(',').map((method) => method.trim());
    expect(allow).toEqual(expect.arrayContaining(expected.allow.methods));
    expect(allow).not.toContain(expected.allow.refused);
  }

  let created: Pet | undefined;
  if (expected.asGet) {
    expect(response.status).toBe(expected.status);
    expect(await response.text()).toBe('');
    const asGet = await expected.asGet(t);
    if (expected.code) await expectError(asGet, expected.status, expected.code, names);
    else expect(asGet.status).toBe(expected.status);
  } else if (expected.code) {
    const error = await expectError(response, expected.status, expected.code, names);
    if (expected.names instanceof RegExp) expect(error.message).toMatch(expected.names);
  } else {
    expect(response.status, await response.clone().text()).toBe(expected.status);
    expectJsonContentType(response);
    if (expected.status === 201) {
      created = (await response.json()) as Pet;
      expect(created).toEqual({ id: lastId + 1, ...(expected.stored ?? VALID_PET) });
      expect(response.headers.get('Location')).toBe(`/v1/pets/${created.id}`);
    }
  }

  expect(await storedPets(t)).toEqual(created ? [...before, created] : before);
  expectNoPollution();
  if (!created) {
    // A refused request consumes no id: the next create gets the one right after the last pet.
    const next = await t.request('/v1/pets', { method: 'POST', json: { name: 'Next', categoryId: 2 } });
    expect(next.status).toBe(201);
    expect(((await next.json()) as Pet).id).toBe(lastId + 1);
  }
}

/** `[title, row]` pairs: `%s` shows a title whole, where `$title` would cut it at 40 characters. */
function table(rows: Row[]): [string, Row][] {
  return rows.map((row) => [row.title, row]);
}

/** Authorization values that must never authenticate, each a function of the valid key. */
const BAD_AUTHORIZATIONS: [input: string, value: (key: string) => string[]][] = [
  ['no Authorization header', () => []],
  ['the Basic scheme', () => ['Basic dXNlcjpwYXNzd29yZA==']],
  ['the Basic scheme carrying the valid key', (key) => [`Basic ${Buffer.from(`${key}:`).toString('base64')}`]],
  ['the valid key without a scheme', (key) => [key]],
  ['Bearer with no token', () => ['Bearer']],
  ['a tab instead of the space after Bearer', (key) => [`Bearer\t${key}`]],
  ['the valid key with an illegal character appended', (key) => [`Bearer ${key}!`]],
  ['a token of illegal characters', () => ['Bearer <script>;"{}']],
  ['a token with a Latin-1 character', (key) => [`Bearer ${key}\u00e9`]],
  ['a 10 KB token', () => [`Bearer ask_${'A'.repeat(10_240)}`]],
  ['the valid key followed by 10 KB', (key) => [`Bearer ${key}${'A'.repeat(10_240)}`]],
  ['two Authorization values, both the valid key', (key) => [`Bearer ${key}`, `Bearer ${key}`]],
  ['an unknown key', () => [`Bearer ask_${'A'.repeat(43)}`]],
];

/** Spellings RFC 6750 and RFC 9110 allow: the scheme is case-insensitive and followed by 1*SP. */
const GOOD_AUTHORIZATIONS: [input: string, value: (key: string) => string][] = [
  ['Bearer and two spaces before the key (RFC 6750 allows 1*SP)', (key) => `Bearer  ${key}`],
  ['lowercase bearer (the scheme is case-insensitive)', (key) => `bearer ${key}`],
  ['uppercase BEARER (the scheme is case-insensitive)', (key) => `BEARER ${key}`],
];

function authorizationRows(path: string, init: RequestInit, okStatus: 200 | 201, extras: Extras = {}): Row[] {
  const method = init.method ?? 'GET';
  return [
    ...BAD_AUTHORIZATIONS.map(([input, value]) =>
      refused(`${method} with ${input}`, 401, 'unauthorized', (app) => as(value(app.apiKey), path, init)(app), {
        ...extras,
        names: AUTH_PROBLEM,
        headers: { ...extras.headers, ...CHALLENGE },
      }),
    ),
    ...GOOD_AUTHORIZATIONS.map(([input, value]) =>
      accepted(`${method} with ${input}`, okStatus, (app) => as([value(app.apiKey)], path, init)(app), extras),
    ),
  ];
}

describe('POST /v1/pets', () => {
  const deepArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  const rows: Row[] = [
    // Malformed, truncated and hostile JSON.
    refused('malformed JSON `{name:Rex}`', 400, 'malformed_json', post('{name:Rex}'), { names: 'body' }),
    refused('two JSON documents back to back', 400, 'malformed_json', post(`${VALID_BODY}${VALID_BODY}`), {
      names: 'body',
    }),
    refused('a comment inside the object', 400, 'malformed_json', post('{"name":"Rex",/* x */"categoryId":1}'), {
      names: 'body',
    }),
    refused('the key `name` twice', 400, 'malformed_json', post('{"name":"Rex","categoryId":1,"name":"Max"}'), {
      names: 'name',
    }),
    refused(
      'the key `name` twice, once escaped as `n\\u0061me`',
      400,
      'malformed_json',
      post('{"n\\u0061me":"Rex","categoryId":1,"name":"Max"}'),
      { names: 'name' },
    ),
    refused('categoryId Infinity', 400, 'malformed_json', withCategoryId('Infinity'), { names: 'body' }),
    refused('categoryId with a leading zero (01)', 400, 'malformed_json', withCategoryId('01'), { names: 'body' }),
    refused('categoryId in hex (0x1)', 400, 'malformed_json', withCategoryId('0x1'), { names: 'body' }),
    refused('10,000 unclosed `[` (10,000 bytes)', 400, 'malformed_json', post('['.repeat(10_000)), { names: 'body' }),
    refused(
      '8,000 nested arrays, closed (16,000 bytes): valid JSON, not an object',
      400,
      'validation_failed',
      post(deepArrays(8_000)),
      { names: 'body' },
    ),
    refused(
      'objects nested 2,700 deep under an unknown field `a`',
      400,
      'validation_failed',
      post(`${'{"a":'.repeat(2_700)}1${'}'.repeat(2_700)}`),
      { names: 'a' },
    ),
    refused(
      'status holding 7,000 nested arrays',
      400,
      'validation_failed',
      post(`{"name":"Rex","categoryId":1,"status":${deepArrays(7_000)}}`),
      { names: 'status' },
    ),
    refused(
      '10,000 nested arrays, closed (20,000 bytes, over 16 KiB)',
      413,
      'payload_too_large',
      post(deepArrays(10_000)),
      { names: 'body' },
    ),

    // Duplicate keys: JSON.parse keeps the last, a proxy in front may keep the first and would
    // have checked another request, so a key twice in one object is refused, naming it.
    refused('duplicate name keys "a" then "b"', 400, 'malformed_json', post('{"name":"a","name":"b","categoryId":1}'), {
      names: 'name',
    }),
    refused(
      'duplicate name keys "Rex" then ""',
      400,
      'malformed_json',
      post('{"name":"Rex","name":"","categoryId":1}'),
      { names: 'name' },
    ),
    refused(
      'duplicate categoryId keys 1 then 0',
      400,
      'malformed_json',
      post('{"name":"Rex","categoryId":1,"categoryId":0}'),
      { names: 'categoryId' },
    ),

    // Keys that would reach Object.prototype if the body were merged into an object.
    refused(
      'a `__proto__` key carrying `polluted`',
      400,
      'validation_failed',
      post(`{"name":"Rex","categoryId":1,"__proto__":{"polluted":"yes"}}`),
      { names: '__proto__' },
    ),
    refused(
      'only a `__proto__` key carrying a whole valid pet',
      400,
      'validation_failed',
      post('{"__proto__":{"name":"Rex","categoryId":1,"polluted":"yes"}}'),
      { names: '__proto__' },
    ),
    refused(
      'a `constructor.prototype` key carrying `polluted`',
      400,
      'validation_failed',
      post('{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":"yes"}}}'),
      { names: 'constructor' },
    ),
    refused(
      'a `prototype` key carrying `polluted`',
      400,
      'validation_failed',
      post('{"name":"Rex","categoryId":1,"prototype":{"polluted":"yes"}}'),
      { names: 'prototype' },
    ),
    refused(
      'a `hasOwnProperty` key',
      400,
      'validation_failed',
      post('{"name":"Rex","categoryId":1,"hasOwnProperty":1}'),
      { names: 'hasOwnProperty' },
    ),

    // Many unknown fields (the contract suite holds the bodies NewPet's rules refuse).
    refused(
      '1,500 unknown fields (first `f0`)',
      400,
      'validation_failed',
      postJson({
        name: 'Rex',
        categoryId: 1,
        ...Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`f${i}`, 0])),
      }),
      { names: 'f0' },
    ),

    // Bytes that are not UTF-8.
    refused(
      'byte FF inside the name',
      400,
      'malformed_json',
      post(bytes('{"name":"Re', [0xff], 'x","categoryId":1}')),
      { names: 'body' },
    ),
    refused(
      'overlong C0 AF inside the name',
      400,
      'malformed_json',
      post(bytes('{"name":"Re', [0xc0, 0xaf], 'x","categoryId":1}')),
      { names: 'body' },
    ),
    refused(
      'an encoded surrogate ED A0 80 inside the name',
      400,
      'malformed_json',
      post(bytes('{"name":"Re', [0xed, 0xa0, 0x80], 'x","categoryId":1}')),
      { names: 'body' },
    ),
    refused(
      'a truncated sequence E2 82 inside the name',
      400,
      'malformed_json',
      post(bytes('{"name":"Re', [0xe2, 0x82], '","categoryId":1}')),
      { names: 'body' },
    ),
    refused('byte FF alone as the body', 400, 'malformed_json', post(bytes([0xff])), { names: 'body' }),

    // Content-Type.
    refused(
      'Content-Type application/json; charset=latin1',
      415,
      'unsupported_media_type',
      post(VALID_BODY, 'application/json; charset=latin1'),
      { names: 'charset' },
    ),
    refused(
      'Content-Type application/json; charset=utf-16',
      415,
      'unsupported_media_type',
      post(VALID_BODY, 'application/json; charset=utf-16'),
      { names: 'charset' },
    ),
    accepted('Content-Type application/json; charset=utf-8', 201, post(VALID_BODY, 'application/json; charset=utf-8')),
    accepted('Content-Type application/json; charset=UTF-8', 201, post(VALID_BODY, 'application/json; charset=UTF-8')),
    accepted(
      'Content-Type application/json; charset="utf-8" (quoted)',
      201,
      post(VALID_BODY, 'application/json; charset="utf-8"'),
    ),
    refused('no Content-Type', 415, 'unsupported_media_type', post(new TextEncoder().encode(VALID_BODY), null), {
      names: 'Content-Type',
    }),
    refused(
      'Content-Type text/plain with a valid JSON body',
      415,
      'unsupported_media_type',
      post(VALID_BODY, 'text/plain'),
      { names: 'Content-Type' },
    ),
    refused(
      'Content-Type application/x-www-form-urlencoded',
      415,
      'unsupported_media_type',
      post('name=Rex&categoryId=1', 'application/x-www-form-urlencoded'),
      { names: 'Content-Type' },
    ),

    // Size.
    accepted('a body of exactly 16 KiB with Content-Length', 201, postWithContentLength(paddedPet(MAX_BODY_BYTES))),
    refused(
      'a body of 16 KiB + 1 with Content-Length',
      413,
      'payload_too_large',
      postWithContentLength(paddedPet(MAX_BODY_BYTES + 1)),
      { names: 'body' },
    ),
    refused(
      'a body of 16 KiB + 1 streamed without Content-Length',
      413,
      'payload_too_large',
      postStreamed(paddedPet(MAX_BODY_BYTES + 1)),
      { names: 'body' },
    ),
    refused(
      'a body of 1 MiB streamed without Content-Length',
      413,
      'payload_too_large',
      postStreamed(paddedPet(1024 * 1024)),
      { names: 'body' },
    ),

    // Order of handling: authentication before validation.
    refused(
      'malformed JSON without a key',
      401,
      'unauthorized',
      as([], '/v1/pets', { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' } }),
      { names: AUTH_PROBLEM, headers: CHALLENGE },
    ),
    refused(
      'a 20 KB body without a key',
      401,
      'unauthorized',
      as([], '/v1/pets', { method: 'POST', body: paddedPet(20_000), headers: { 'Content-Type': 'application/json' } }),
      { names: AUTH_PROBLEM, headers: CHALLENGE },
    ),
    refused(
      'text/plain without a key',
      401,
      'unauthorized',
      as([], '/v1/pets', { method: 'POST', body: VALID_BODY, headers: { 'Content-Type': 'text/plain' } }),
      { names: AUTH_PROBLEM, headers: CHALLENGE },
    ),

    ...authorizationRows(
      '/v1/pets',
      { method: 'POST', body: VALID_BODY, headers: { 'Content-Type': 'application/json' } },
      201,
    ),
  ];

  it.each(table(rows))('%s', (_, row) => runRow(row));
});

describe('GET /v1/pets', () => {
  const rows: Row[] = [
    refused('limit=0', 400, 'validation_failed', get('/v1/pets?limit=0'), { names: 'limit' }),
    refused('limit=101', 400, 'validation_failed', get('/v1/pets?limit=101'), { names: 'limit' }),
    refused('limit=-1', 400, 'validation_failed', get('/v1/pets?limit=-1'), { names: 'limit' }),
    refused('limit=abc', 400, 'validation_failed', get('/v1/pets?limit=abc'), { names: 'limit' }),
    refused('limit=1.5', 400, 'validation_failed', get('/v1/pets?limit=1.5'), { names: 'limit' }),
    refused('limit=1.0', 400, 'validation_failed', get('/v1/pets?limit=1.0'), { names: 'limit' }),
    refused('limit=01', 400, 'validation_failed', get('/v1/pets?limit=01'), { names: 'limit' }),
    refused('limit=1e1', 400, 'validation_failed', get('/v1/pets?limit=1e1'), { names: 'limit' }),
    refused('limit= (empty)', 400, 'validation_failed', get('/v1/pets?limit='), { names: 'limit' }),
    refused('limit=%2B5 (+5)', 400, 'validation_failed', get('/v1/pets?limit=%2B5'), { names: 'limit' }),
    refused('limit=5%00', 400, 'validation_failed', get('/v1/pets?limit=5%00'), { names: 'limit' }),
    refused('limit of 400 digits', 400, 'validation_failed', get(`/v1/pets?limit=${'9'.repeat(400)}`), {
      names: 'limit',
    }),
    refused('limit repeated (limit=1&limit=2)', 400, 'validation_failed', get('/v1/pets?limit=1&limit=2'), {
      names: 'limit',
    }),
    refused('limit repeated with the same value', 400, 'validation_failed', get('/v1/pets?limit=5&limit=5'), {
      names: 'limit',
    }),
    refused('status=lost', 400, 'validation_failed', get('/v1/pets?status=lost'), { names: 'status' }),
    refused('status=AVAILABLE', 400, 'validation_failed', get('/v1/pets?status=AVAILABLE'), { names: 'status' }),
    refused('status= (empty)', 400, 'validation_failed', get('/v1/pets?status='), { names: 'status' }),
    refused('status=sold%00', 400, 'validation_failed', get('/v1/pets?status=sold%00'), { names: 'status' }),
    refused(
      'status repeated (status=sold&status=pending)',
      400,
      'validation_failed',
      get('/v1/pets?status=sold&status=pending'),
      { names: 'status' },
    ),
    refused('cursor garbage `abc`', 400, 'invalid_cursor', get('/v1/pets?cursor=abc'), { names: 'cursor' }),
    refused('cursor `%00.%00`', 400, 'invalid_cursor', get('/v1/pets?cursor=%00.%00'), { names: 'cursor' }),
    refused(
      'cursor tampered (last character of the signature changed)',
      400,
      'invalid_cursor',
      (app) => {
        const tampered = issuedCursor.slice(0, -1) + (issuedCursor.endsWith('A') ? 'B' : 'A');
        return app.request(`/v1/pets?limit=1&cursor=${encodeURIComponent(tampered)}`);
      },
      { names: 'cursor' },
    ),
    refused(
      'cursor with its payload forged to position 0 and the signature kept',
      400,
      'invalid_cursor',
      (app) => {
        const [, signature] = issuedCursor.split('.');
        const forged = `${Buffer.from(JSON.stringify({ a: 0, s: null })).toString('base64url')}.${signature}`;
        return app.request(`/v1/pets?limit=1&cursor=${encodeURIComponent(forged)}`);
      },
      { names: 'cursor' },
    ),
    refused(
      'cursor issued for no filter, used with status=sold',
      400,
      'invalid_cursor',
      (app) => app.request(`/v1/pets?limit=1&status=sold&cursor=${encodeURIComponent(issuedCursor)}`),
      { names: 'cursor' },
    ),
    refused(
      'cursor of 600 characters (longer than any the service issues)',
      400,
      'invalid_cursor',
      get(`/v1/pets?cursor=${'x'.repeat(600)}`),
      { names: 'cursor' },
    ),
    refused(
      'cursor of 600 characters shaped like an issued one (payload.signature)',
      400,
      'invalid_cursor',
      get(`/v1/pets?cursor=${'A'.repeat(577)}.${'A'.repeat(22)}`),
      { names: 'cursor' },
    ),
    refused('cursor= (empty, so not one the service issued)', 400, 'invalid_cursor', get('/v1/pets?cursor='), {
      names: 'cursor',
    }),
    refused(
      'cursor repeated',
      400,
      'validation_failed',
      (app) =>
        app.request(`/v1/pets?cursor=${encodeURIComponent(issuedCursor)}&cursor=${encodeURIComponent(issuedCursor)}`),
      { names: 'cursor' },
    ),
    // The contract does not restrict unknown query parameters; these ones must merely stay inert.
    accepted(
      'query parameters named __proto__ and constructor (ignored, nothing polluted)',
      200,
      get('/v1/pets?__proto__=polluted&constructor=polluted&__proto__[polluted]=yes'),
    ),
    accepted('HEAD /v1/pets (the same answer as GET, without a body)', 200, head('/v1/pets'), {
      asGet: get('/v1/pets'),
    }),
    refused('HEAD with limit=0', 400, 'validation_failed', head('/v1/pets?limit=0'), {
      asGet: get('/v1/pets?limit=0'),
      names: 'limit',
    }),
    refused('HEAD with cursor garbage', 400, 'invalid_cursor', head('/v1/pets?cursor=abc'), {
      asGet: get('/v1/pets?cursor=abc'),
      names: 'cursor',
    }),
    refused('HEAD without a key', 401, 'unauthorized', (app) => app.app.request('/v1/pets', { method: 'HEAD' }), {
      asGet: (app) => app.app.request('/v1/pets'),
      headers: CHALLENGE,
    }),
    refused('an invalid limit without a key (authentication first)', 401, 'unauthorized', as([], '/v1/pets?limit=0'), {
      names: AUTH_PROBLEM,
      headers: CHALLENGE,
    }),
    ...authorizationRows('/v1/pets', {}, 200),
  ];

  it.each(table(rows))('%s', (_, row) => runRow(row));
});

describe('GET /v1/pets/{petId}', () => {
  /** Every response of the deprecated operation, of any status, carries these. */
  const deprecated = { headers: DEPRECATION_HEADERS };
  const badPetId = (input: string, path: string) =>
    refused(`petId ${input}`, 400, 'validation_failed', get(path), { ...deprecated, names: 'petId' });

  const rows: Row[] = [
    badPetId('0', '/v1/pets/0'),
    badPetId('-1', '/v1/pets/-1'),
    badPetId('-0', '/v1/pets/-0'),
    badPetId('01', '/v1/pets/01'),
    badPetId('+1', '/v1/pets/+1'),
    badPetId('%2B1 (an encoded +1)', '/v1/pets/%2B1'),
    badPetId('1.0', '/v1/pets/1.0'),
    badPetId('1e0', '/v1/pets/1e0'),
    badPetId('0x1', '/v1/pets/0x1'),
    badPetId('abc', '/v1/pets/abc'),
    badPetId('%201 (a leading space)', '/v1/pets/%201'),
    badPetId('1%00 (a trailing NUL)', '/v1/pets/1%00'),
    badPetId('%D9%A1 (ARABIC-INDIC DIGIT ONE)', '/v1/pets/%D9%A1'),
    badPetId('%FF (a percent-encoded byte that is not UTF-8)', '/v1/pets/%FF'),
    badPetId('9007199254740992 (2^53)', '/v1/pets/9007199254740992'),
    badPetId('of 400 digits', `/v1/pets/${'9'.repeat(400)}`),
    badPetId('of 5,000 digits', `/v1/pets/1${'0'.repeat(4_999)}`),
    refused('petId 9007199254740991 (2^53-1) that no pet has', 404, 'not_found', get('/v1/pets/9007199254740991'), {
      ...deprecated,
      names: '9007199254740991',
    }),
    accepted('HEAD on an existing pet', 200, head('/v1/pets/1'), { ...deprecated, asGet: get('/v1/pets/1') }),
    refused('HEAD with petId abc', 400, 'validation_failed', head('/v1/pets/abc'), {
      ...deprecated,
      asGet: get('/v1/pets/abc'),
      names: 'petId',
    }),
    refused('HEAD with a petId no pet has', 404, 'not_found', head('/v1/pets/999999'), {
      ...deprecated,
      asGet: get('/v1/pets/999999'),
    }),
    refused('an invalid petId without a key (authentication first)', 401, 'unauthorized', as([], '/v1/pets/abc'), {
      headers: { ...DEPRECATION_HEADERS, ...CHALLENGE },
      names: AUTH_PROBLEM,
    }),
    ...authorizationRows('/v1/pets/1', {}, 200, deprecated),
  ];

  it.each(table(rows))('%s', (_, row) => runRow(row));
});

describe('routing', () => {
  const [[undeclaredOnCollection, , collectionAllows]] = undeclaredMethods(['/v1/pets']) as [
    [string, string, string[]],
  ];
  const [[undeclaredOnItem, , itemAllows]] = undeclaredMethods(['/v1/pets/1']) as [[string, string, string[]]];
  const notFound = (method: string, path: string, init: RequestInit = {}) =>
    refused(
      `${method} ${path.length > 60 ? `${path.slice(0, 60)}…` : path}`,
      404,
      'not_found',
      get(path, { ...init, method }),
      { names: path },
    );
  const notAllowed = (method: string, path: string, methods: string[], init: RequestInit = {}, note = '') =>
    refused(`${method} ${path}${note}`, 405, 'method_not_allowed', get(path, { ...init, method }), {
      allow: { methods, refused: method },
      names: method,
    });

  const jsonPost = { body: VALID_BODY, headers: { 'Content-Type': 'application/json' } };
  const rows: Row[] = [
    notFound('GET', '/v1/nope'),
    notFound('GET', '/v1/pets/1/owner'),
    notFound('GET', '/V1/PETS'),
    notFound('GET', '/v1//pets'),
    notFound('GET', '/v2/pets'),
    ...unknownPaths().map((path) => notFound('GET', `/v1${path}`)),
    notFound('GET', '/v1/pets/1/'),
    notFound('GET', `/v1/${'a'.repeat(4_000)}`),
    notFound('POST', '/v1/nope', jsonPost),
    notFound('DELETE', '/v1/nope'),
    // Every method the contract does not declare on a collection's path and on an item's, as sent and with a valid body.
    ...undeclaredMethods(['/v1/pets', '/v1/pets/1']).flatMap(([method, path, allowed]) => [
      notAllowed(method, path, allowed),
      notAllowed(method, path, allowed, jsonPost, ' with a valid pet'),
    ]),
    notAllowed('OPTIONS', '/v1/pets', collectionAllows),
    notAllowed(
      undeclaredOnCollection,
      '/v1/pets',
      collectionAllows,
      { body: '{', headers: { 'Content-Type': 'application/json' } },
      ' with malformed JSON (routing before validation)',
    ),
    notAllowed(undeclaredOnItem, '/v1/pets/abc', itemAllows, {}, ' (routing before petId validation)'),
    refused('HEAD /v1/nope', 404, 'not_found', head('/v1/nope'), { asGet: get('/v1/nope'), names: '/v1/nope' }),
    refused('GET /v1/nope without a key (authentication first)', 401, 'unauthorized', as([], '/v1/nope'), {
      names: AUTH_PROBLEM,
      headers: CHALLENGE,
    }),
    refused(
      `${undeclaredOnCollection} /v1/pets without a key (authentication first)`,
      401,
      'unauthorized',
      as([], '/v1/pets', { method: undeclaredOnCollection }),
      { names: AUTH_PROBLEM, headers: CHALLENGE },
    ),
  ];

  it.each(table(rows))('%s', (_, row) => runRow(row));
});
