import { describe, expect, it } from 'vitest';
import {
  componentSchema,
  header,
  jsonContent,
  keywords,
  operation,
  parameter,
  propertyOf,
  resolve,
  response,
  responses,
} from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

describe('listPets', () => {
  it('is GET /pets', () => {
    expect(operation('listPets')).toMatchObject({ method: 'GET', path: '/pets' });
  });

  it('takes an optional query parameter limit, an integer from 1 to 100', () => {
    const limit = parameter('listPets', 'limit');
    expect(limit.in).toBe('query');
    expect(limit.required ?? false).toBe(false);
    expect(keywords(limit.schema)).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('returns at most 20 animals when limit is omitted', () => {
    expect(keywords(parameter('listPets', 'limit').schema).default).toBe(20);
  });

  it('takes an optional query parameter status, one of the PetStatus values', () => {
    const status = parameter('listPets', 'status');
    expect(status.in).toBe('query');
    expect(status.required ?? false).toBe(false);
    expect(resolve(status.schema ?? {})).toBe(componentSchema('PetStatus'));
  });

  it('filters on the status every returned animal carries', () => {
    const status = parameter('listPets', 'status');
    expect(resolve(status.schema ?? {})).toBe(resolve(propertyOf(componentSchema('Pet'), 'status')));
    expect(status.description).toMatch(/every returned animal/i);
  });

  it('has no request body', () => {
    expect(operation('listPets').operation.requestBody).toBeUndefined();
  });

  it('answers 200 with Pets, a JSON array of Pet', () => {
    expect(resolve(jsonContent(response('listPets', '200')).schema ?? {})).toBe(componentSchema('Pets'));
  });

  it('answers 401 with an Error body', () => {
    expect(resolve(jsonContent(response('listPets', '401')).schema ?? {})).toBe(componentSchema('Error'));
  });

  it('declares exactly the responses 200, 400, 401, 429, 500 and 503', () => {
    expect(
      responses('listPets')
        .map(([status]) => status)
        .sort(),
    ).toEqual(['200', '400', '401', '429', '500', '503']);
  });
});

describe('listPets pagination', () => {
  it('documents the order: ascending id, the order of creation', () => {
    expect(operation('listPets').operation.description).toMatch(/ascending `id`/);
  });

  it('takes an optional opaque string parameter cursor in the query', () => {
    const cursor = parameter('listPets', 'cursor');
    expect(cursor.in).toBe('query');
    expect(cursor.required ?? false).toBe(false);
    expect(keywords(cursor.schema).type).toBe('string');
  });

  it('announces the next page with a Link header on 200 that the last page omits', () => {
    const link = header(response('listPets', '200'), 'Link');
    expect(link).toBeDefined();
    expect(link?.required ?? false).toBe(false);
  });

  it('documents that the next link always repeats limit, and status when given', () => {
    expect(header(response('listPets', '200'), 'Link')?.description).toMatch(
      /repeats `limit` \(also when it was the default\) and `status`/,
    );
  });

  it.each([
    ['repeating limit and status', '</v1/pets?limit=20&status=sold&cursor=eyJhZnRlciI6MjB9>; rel="next"'],
    ['repeating the default limit without a status', '</v1/pets?limit=20&cursor=eyJhZnRlciI6MjB9>; rel="next"'],
  ])('describes the next link as a path-absolute reference %s', (_case, value) => {
    expect(accepts(header(response('listPets', '200'), 'Link')?.schema ?? {}, value)).toBe(true);
  });

  it.each([
    ['with a scheme and host', '<https://api.animalstore.dev/v1/pets?limit=20&cursor=abc>; rel="next"'],
    ['without a cursor', '</v1/pets?limit=20>; rel="next"'],
    ['with another relation', '</v1/pets>; rel="successor-version"'],
  ])('rejects a next link %s', (_case, value) => {
    expect(accepts(header(response('listPets', '200'), 'Link')?.schema ?? {}, value)).toBe(false);
  });

  it('answers 400 with an Error body for an invalid limit, status or cursor', () => {
    expect(resolve(jsonContent(response('listPets', '400')).schema ?? {})).toBe(componentSchema('Error'));
  });
});
