import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import type { Pet, PetStatus } from '../../../generated/openapi.ts';
import { contract as contractDocument } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';
import { expectError, expectJsonContentType, postRaw } from '../../support/http.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

/** The largest body createPet reads, as the contract's `x-max-body-bytes` sets it. */
const MAX_BODY_BYTES = defined(loadContract().operation('createPet').maxBodyBytes, 'the body limit of createPet');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const json = (value: unknown) => JSON.stringify(value);
const withName = (name: string) => json({ name, categoryId: 1 });
const withCategoryId = (categoryId: string) => `{"name":"Rex","categoryId":${categoryId}}`;

/** Bodies that hold valid JSON but not a valid NewPet, each with the field its 400 must name. */
const INVALID_PETS: [label: string, body: string, field: string][] = [
  ['missing name', json({ categoryId: 1 }), 'name'],
  ['missing categoryId', json({ name: 'Rex' }), 'categoryId'],
  ['name as a number', json({ name: 1, categoryId: 1 }), 'name'],
  ['name as null', json({ name: null, categoryId: 1 }), 'name'],
  ['categoryId as a string', json({ name: 'Rex', categoryId: '1' }), 'categoryId'],
  ['categoryId 1.5', withCategoryId('1.5'), 'categoryId'],
  ['categoryId 0', withCategoryId('0'), 'categoryId'],
  ['categoryId -1', withCategoryId('-1'), 'categoryId'],
  ['categoryId 2^53', withCategoryId('9007199254740992'), 'categoryId'],
  ['categoryId 1e400', withCategoryId('1e400'), 'categoryId'],
  ['categoryId as a boolean', withCategoryId('true'), 'categoryId'],
  ['status 1', json({ name: 'Rex', categoryId: 1, status: 1 }), 'status'],
  ['status lost', json({ name: 'Rex', categoryId: 1, status: 'lost' }), 'status'],
  ['status Available', json({ name: 'Rex', categoryId: 1, status: 'Available' }), 'status'],
  ['status null', json({ name: 'Rex', categoryId: 1, status: null }), 'status'],
  ['an unknown field', json({ name: 'Rex', categoryId: 1, colour: 'brown' }), 'colour'],
  ['a misspelt field', json({ name: 'Rex', categoryID: 1 }), 'categoryID'],
  ['an id chosen by the client', json({ id: 7, name: 'Rex', categoryId: 1 }), 'id'],
  ['name empty', withName(''), 'name'],
  ['name of spaces only', withName('   '), 'name'],
  ['name of Unicode whitespace only', withName('\u00a0\u2003\u3000'), 'name'],
  ['name of 101 characters', withName('a'.repeat(101)), 'name'],
  ['name of 101 astral characters', withName('😀'.repeat(101)), 'name'],
  ['name with U+0000', withName('Re\u0000x'), 'name'],
  ['name with a tab', withName('Re\tx'), 'name'],
  ['name with a newline', withName('Rex\n'), 'name'],
  ['name with U+001F', withName('Re\u001fx'), 'name'],
  ['name with U+007F', withName('Re\u007fx'), 'name'],
  ['name with U+0085', withName('Re\u0085x'), 'name'],
  ['name with U+009F', withName('Re\u009fx'), 'name'],
  ['name with an unpaired surrogate escape', '{"name":"Re\\ud800x","categoryId":1}', 'name'],
];

const NOT_AN_OBJECT: [label: string, body: string][] = [
  ['an array', '[]'],
  ['an array of a pet', json([{ name: 'Rex', categoryId: 1 }])],
  ['null', 'null'],
  ['a string', '"Rex"'],
  ['a number', '42'],
  ['a boolean', 'true'],
];

const MALFORMED_JSON: [label: string, body: string][] = [
  ['an unclosed object', '{"name":"Rex","categoryId":1'],
  ['a trailing comma', '{"name":"Rex","categoryId":1,}'],
  ['single quotes', "{'name':'Rex','categoryId':1}"],
  ['bare text', 'Rex'],
  ['text after the object', '{"name":"Rex","categoryId":1} x'],
  ['NaN', '{"name":"Rex","categoryId":NaN}'],
  ['an empty body', ''],
  ['a body of whitespace', ' \n\t '],
];

const UNSUPPORTED_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonl',
];

/** A valid NewPet padded with spaces to exactly `bytes` bytes. */
function paddedPet(bytes: number): Uint8Array {
  const pet = json({ name: 'Rex', categoryId: 1 });
  return new TextEncoder().encode(pet + ' '.repeat(bytes - pet.length));
}

function streamOf(bytes: Uint8Array, chunkSize = 4096): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

type BodyFraming = 'Content-Length' | 'a stream without Content-Length';

async function postBytes(app: TestApp, bytes: Uint8Array, framing: BodyFraming): Promise<Response> {
  if (framing === 'Content-Length') {
    return await app.request('/v1/pets', {
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(bytes.length) },
    });
  }
  return await app.request('/v1/pets', {
    method: 'POST',
    body: streamOf(bytes),
    headers: { 'Content-Type': 'application/json' },
    duplex: 'half',
  } as RequestInit);
}

/** The `Location` of a 201, where the new pet can be read. */
function locationOf(response: Response): string {
  return defined(response.headers.get('Location'), 'a Location header on the 201');
}

async function getPet(app: TestApp, location: string): Promise<Pet> {
  const response = await app.request(location);
  expect(response.status).toBe(200);
  return (await response.json()) as Pet;
}

describe('POST /pets', () => {
  it('answers 201 with the stored pet and a Location header pointing at it', async () => {
    const response = await t.request('/v1/pets', {
      method: 'POST',
      json: { name: 'Rex', categoryId: 3, status: 'pending' },
    });
    expect(response.status).toBe(201);
    expectJsonContentType(response);
    const pet = (await response.json()) as Pet;
    expect(pet).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 3, status: 'pending' });
    expect(response.headers.get('Location')).toBe(`/v1/pets/${pet.id}`);
    expect(await getPet(t, `/v1/pets/${pet.id}`)).toEqual(pet);
  });

  it('stores status available when the body omits it, and says so in the 201 body', async () => {
    const response = await t.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 3 } });
    expect(response.status).toBe(201);
    const pet = (await response.json()) as Pet;
    expect(pet.status).toBe('available');
    expect((await getPet(t, locationOf(response))).status).toBe('available');
  });

  it.each<PetStatus>(['available', 'pending', 'sold'])('keeps an explicit status %s', async (status) => {
    const response = await t.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 3, status } });
    expect(response.status).toBe(201);
    expect(((await response.json()) as Pet).status).toBe(status);
    expect((await getPet(t, locationOf(response))).status).toBe(status);
  });

  it('assigns ids 1, 2, 3 in creation order', async () => {
    const fresh = await createTestApp();
    const created: number[] = [];
    for (const name of ['Rex', 'Tom', 'Kit']) {
      const response = await fresh.request('/v1/pets', { method: 'POST', json: { name, categoryId: 1 } });
      created.push(((await response.json()) as Pet).id);
    }
    expect(created).toEqual([1, 2, 3]);
    fresh.close();
  });

  it.each([
    ['leading and trailing spaces', '  Rex  '],
    ['inner runs of spaces', 'Rex   the   dog'],
    ['a leading no-break space', '\u00a0Rex'],
    ['accents and an emoji sequence', 'Émile 🐕‍🦺'],
    ['non-Latin scripts', '小白 Шарик'],
    ['one character', 'R'],
    ['100 characters', 'a'.repeat(100)],
    ['100 astral characters', '😀'.repeat(100)],
    ['quotes and backslashes', 'Rex "the" \\dog\\'],
  ])('stores a name with %s exactly as sent', async (_, name) => {
    const response = await t.request('/v1/pets', { method: 'POST', json: { name, categoryId: 1 } });
    expect(response.status).toBe(201);
    expect(((await response.json()) as Pet).name).toBe(name);
    expect((await getPet(t, locationOf(response))).name).toBe(name);
  });

  it.each([
    ['1.0', 1],
    ['1e2', 100],
    ['1E+2', 100],
    ['100.000', 100],
    ['1', 1],
    ['9007199254740991', 9007199254740991],
  ])('accepts categoryId written as %s, an integral JSON number', async (text, categoryId) => {
    const response = await postRaw(t, withCategoryId(text));
    expect(response.status).toBe(201);
    expect(((await response.json()) as Pet).categoryId).toBe(categoryId);
  });

  it.each(INVALID_PETS)(
    'rejects a body with %s with 400 validation_failed naming the field',
    async (_, body, field) => {
      await expectError(await postRaw(t, body), 400, 'validation_failed', field);
    },
  );

  it.each<[label: string, body: object, fields: string[]]>([
    [
      'every field wrong, sent in reverse order',
      { status: 'lost', categoryId: 'a', name: 5 },
      ['name', 'categoryId', 'status'],
    ],
    ['both required fields missing', {}, ['name', 'categoryId']],
    ['a misspelt field and the field it misspells missing', { nme: 'Rex', categoryId: 3 }, ['nme', 'name']],
    [
      'two unknown fields, then a wrong status',
      { status: 'lost', name: 'Rex', categoryId: 1, colour: 'red', size: 2 },
      ['colour', 'size', 'status'],
    ],
    [
      'an unknown field holding an unpaired surrogate, and an empty name',
      { name: '', tags: ['\ud800'], categoryId: 1 },
      ['tags', 'name'],
    ],
  ])(
    'rejects a body with %s with one detail per field at fault, unknown fields first, then in NewPet order',
    async (_, body, fields) => {
      const error = await expectError(await postRaw(t, json(body)), 400, 'validation_failed', fields[0]);
      expect(error.details?.map((detail) => [detail.in, detail.name])).toEqual(fields.map((field) => ['body', field]));
    },
  );

  it('lists no more details than the Error schema allows for a full body of unknown fields, in an answer about its size', async () => {
    const errorSchema = contractDocument.components?.schemas?.Error as unknown as {
      properties: { details: { maxItems: number } };
    };
    const maxDetails = errorSchema.properties.details.maxItems;
    const fields: Record<string, number> = { name: 1 };
    for (let index = 0; JSON.stringify(fields).length < MAX_BODY_BYTES - 20; index++) fields[`u${index}`] = 0;
    const body = json(fields);
    expect(Object.keys(fields).length).toBeGreaterThan(maxDetails * 10);

    const response = await postRaw(t, body);
    const answer = await response.clone().text();
    const error = await expectError(response, 400, 'validation_failed', 'u0');

    expect(error.details).toHaveLength(maxDetails);
    expect(error.details?.[0]?.name).toBe('u0');
    expect(answer.length).toBeLessThan(body.length);
  });

  it.each(NOT_AN_OBJECT)('rejects a body that is %s with 400 validation_failed', async (_, body) => {
    const error = await expectError(await postRaw(t, body), 400, 'validation_failed');
    expect(error.message).toMatch(/body/i);
  });

  it.each(MALFORMED_JSON)('rejects %s with 400 malformed_json', async (_, body) => {
    const error = await expectError(await postRaw(t, body), 400, 'malformed_json');
    expect(error.message).toMatch(/body/i);
  });

  it('rejects a request without a body with 400 malformed_json', async () => {
    await expectError(
      await t.request('/v1/pets', { method: 'POST', headers: { 'Content-Type': 'application/json' } }),
      400,
      'malformed_json',
    );
  });

  describe('body size', () => {
    const framings: BodyFraming[] = ['Content-Length', 'a stream without Content-Length'];

    it.each(framings)('accepts a body of exactly 16 KiB sent with %s', async (framing) => {
      const response = await postBytes(t, paddedPet(MAX_BODY_BYTES), framing);
      expect(response.status).toBe(201);
    });

    it.each(framings)(
      'rejects a body of 16 KiB and one byte sent with %s with 413 payload_too_large',
      async (framing) => {
        await expectError(await postBytes(t, paddedPet(MAX_BODY_BYTES + 1), framing), 413, 'payload_too_large');
      },
    );

    it('rejects a streamed body of 1 MiB with 413 payload_too_large', async () => {
      await expectError(
        await postBytes(t, paddedPet(1024 * 1024), 'a stream without Content-Length'),
        413,
        'payload_too_large',
      );
    });

    it('counts bytes, not characters', async () => {
      const body = new TextEncoder().encode(json({ name: 'Rex', categoryId: 1, note: 'é'.repeat(9000) }));
      expect(body.length).toBeGreaterThan(MAX_BODY_BYTES);
      await expectError(await postBytes(t, body, 'a stream without Content-Length'), 413, 'payload_too_large');
    });
  });

  describe('Content-Type', () => {
    it.each(UNSUPPORTED_CONTENT_TYPES)(
      'rejects %s with 415 unsupported_media_type naming Content-Type',
      async (contentType) => {
        await expectError(
          await postRaw(t, withName('Rex'), contentType),
          415,
          'unsupported_media_type',
          'Content-Type',
        );
      },
    );

    it('rejects a body without Content-Type with 415 unsupported_media_type', async () => {
      const response = await t.request('/v1/pets', { method: 'POST', body: new TextEncoder().encode(withName('Rex')) });
      await expectError(response, 415, 'unsupported_media_type', 'Content-Type');
    });

    it.each(['gzip', 'br', 'identity, gzip'])(
      'rejects a body sent with Content-Encoding: %s with 415 unsupported_media_type and Accept-Encoding: identity',
      async (coding) => {
        const response = await t.request('/v1/pets', {
          method: 'POST',
          json: { name: 'Rex', categoryId: 1 },
          headers: { 'Content-Encoding': coding },
        });
        expect(response.headers.get('Accept-Encoding')).toBe('identity');
        await expectError(response, 415, 'unsupported_media_type', 'Content-Encoding');
      },
    );

    it('accepts Content-Encoding: identity, which is no coding', async () => {
      const response = await t.request('/v1/pets', {
        method: 'POST',
        json: { name: 'Rex', categoryId: 1 },
        headers: { 'Content-Encoding': 'identity' },
      });
      expect(response.status).toBe(201);
    });

    it.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON'])(
      'accepts %s',
      async (contentType) => {
        expect((await postRaw(t, withName('Rex'), contentType)).status).toBe(201);
      },
    );
  });

  it('stores nothing for any rejected request', async () => {
    const fresh = await createTestApp();
    const rejected: Response[] = [];
    for (const [, body] of [...INVALID_PETS, ...NOT_AN_OBJECT, ...MALFORMED_JSON])
      rejected.push(await postRaw(fresh, body));
    for (const contentType of UNSUPPORTED_CONTENT_TYPES)
      rejected.push(await postRaw(fresh, withName('Rex'), contentType));
    rejected.push(await postBytes(fresh, paddedPet(MAX_BODY_BYTES + 1), 'Content-Length'));
    rejected.push(await postBytes(fresh, paddedPet(MAX_BODY_BYTES + 1), 'a stream without Content-Length'));
    rejected.push(
      await fresh.request('/v1/pets', {
        method: 'POST',
        json: { name: 'Rex', categoryId: 1 },
        headers: { Authorization: 'Bearer ask_unknown' },
      }),
    );
    expect(rejected.filter((response) => response.status < 400)).toEqual([]);

    const listed = await fresh.request('/v1/pets?limit=100');
    expect(await listed.json()).toEqual([]);
    const first = await fresh.request('/v1/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } });
    expect(((await first.json()) as Pet).id).toBe(1);
    fresh.close();
  });
});
