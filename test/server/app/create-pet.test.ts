import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import type { Pet } from '../../../generated/openapi.ts';
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
    // One body of each kind of refusal; the contract suite holds every body createPet refuses.
    for (const body of [json({ name: 'Rex' }), json([{ name: 'Rex', categoryId: 1 }]), '{"name":"Rex",'])
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
