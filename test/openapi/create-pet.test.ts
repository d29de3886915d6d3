import { describe, expect, it } from 'vitest';
import { maxBodyBytes } from '../../contract/rate-limit-rules.ts';
import { bodySize } from '../../scripts/pipeline/rules-prose.ts';
import {
  componentSchema,
  header,
  jsonContent,
  operation,
  requestBody,
  resolve,
  response,
  responses,
} from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

describe('createPet', () => {
  it('is POST /pets', () => {
    expect(operation('createPet')).toMatchObject({ method: 'POST', path: '/pets' });
  });

  it('requires an application/json body of NewPet', () => {
    const body = requestBody('createPet');
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {})).toEqual(['application/json']);
    expect(resolve(body ? (jsonContent(body).schema ?? {}) : {})).toBe(componentSchema('NewPet'));
  });

  it('leaves id out of NewPet, since the service assigns it', () => {
    expect(accepts(componentSchema('NewPet'), { name: 'Rex', categoryId: 3, id: 7 })).toBe(false);
  });

  it('answers 201 with the Pet as stored', () => {
    expect(resolve(jsonContent(response('createPet', '201')).schema ?? {})).toBe(componentSchema('Pet'));
  });

  it.each(['400', '401'])('answers %s with an Error body', (status) => {
    expect(resolve(jsonContent(response('createPet', status)).schema ?? {})).toBe(componentSchema('Error'));
  });

  it('declares exactly the responses 201, 400, 401, 409, 413, 415, 422, 429, 500 and 503', () => {
    expect(
      responses('createPet')
        .map(([status]) => status)
        .sort(),
    ).toEqual(['201', '400', '401', '409', '413', '415', '422', '429', '500', '503']);
  });
});

describe('createPet Location, body size and media type', () => {
  it('gives the 201 a required Location header with the path of the new animal', () => {
    const location = header(response('createPet', '201'), 'Location');
    expect(location?.required).toBe(true);
    expect(accepts(location?.schema ?? {}, '/v1/pets/42')).toBe(true);
    expect(location?.example).toMatch(/^\/v1\/pets\/[1-9]\d*$/);
  });

  it('states in its description the body limit its x-max-body-bytes sets, as written from it', () => {
    expect(operation('createPet').operation.description).toContain(`at most ${bodySize(createPetBodyLimit())}`);
  });

  it('answers 415 with an Error body for a missing Content-Type or one other than JSON', () => {
    const unsupported = response('createPet', '415');
    expect(unsupported.description).toMatch(/no `Content-Type`/);
    expect(unsupported.description).toMatch(/application\/json/);
    expect(resolve(jsonContent(unsupported).schema ?? {})).toBe(componentSchema('Error'));
  });
});

function createPetBodyLimit(): number {
  const limit = maxBodyBytes(operation('createPet').operation as Record<string, unknown>);
  if (limit === undefined) throw new Error('createPet sets no x-max-body-bytes');
  return limit;
}

describe.each(['createPet', 'createOrder'])('%s Idempotency-Key', (operationId) => {
  const parameter = () =>
    (operation(operationId).operation.parameters ?? [])
      .map((node) => resolve(node) as unknown as Record<string, unknown>)
      .find((found) => found.in === 'header' && found.name === 'Idempotency-Key');

  it('takes an optional Idempotency-Key header of 1 to 255 visible ASCII characters', () => {
    const declared = parameter();
    expect(declared?.required).toBe(false);
    const schema = declared?.schema as object;
    for (const key of ['a', '~'.repeat(255), '3f0c1d0e-8a4b-4c8e-9b7a-2d5e6f708192'])
      expect(accepts(schema, key), key).toBe(true);
    for (const key of ['', 'k'.repeat(256), 'two words', 'clé', 'tab\there'])
      expect(accepts(schema, key), key).toBe(false);
  });

  it('states the retention its x-retention-hours sets, as written from it', () => {
    const declared = parameter();
    const hours = declared?.['x-retention-hours'];
    expect(hours).toEqual(expect.any(Number));
    expect(declared?.description).toContain(`For ${hours} hours`);
    expect(declared?.description).not.toContain('<!-- x-retention-hours -->');
  });

  it('marks a replayed 201 with Idempotent-Replayed, and answers 409 and 422 with Error bodies', () => {
    expect(header(response(operationId, '201'), 'Idempotent-Replayed')).toBeDefined();
    for (const status of ['409', '422'])
      expect(resolve(jsonContent(response(operationId, status)).schema ?? {})).toBe(componentSchema('Error'));
    expect(header(response(operationId, '409'), 'Retry-After')).toBeDefined();
  });
});
