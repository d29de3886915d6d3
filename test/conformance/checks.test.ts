// The suite is only as strict as its response checks: these prove they refuse what the
// contract forbids, so a target cannot pass by being judged too kindly.
import { describe, expect, it } from 'vitest';
import { type ApiResponse, conformanceProblems, errorBodyProblems } from '../support/conformance/conformance.ts';

const RATE_LIMIT = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': '1795219260' };
const DEPRECATION = {
  Deprecation: '@1795219200',
  Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  Link: '</v1/pets>; rel="successor-version"',
};
const PET = { id: 42, name: 'Rex', categoryId: 3, status: 'available' };

function response(status: number, headers: Record<string, string>, body: unknown): ApiResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers: new Headers({ 'Content-Type': 'application/json', ...headers }), text, body };
}

describe('conformanceProblems', () => {
  it('finds nothing wrong with a response as the contract declares it', () => {
    expect(
      conformanceProblems('getPet', response(200, { ...RATE_LIMIT, ...DEPRECATION, ETag: '"5d41402abc4b2a76"' }, PET)),
    ).toEqual([]);
    expect(conformanceProblems('createPet', response(201, { ...RATE_LIMIT, Location: '/v1/pets/42' }, PET))).toEqual(
      [],
    );
  });

  it.each<[string, string, ApiResponse, RegExp]>([
    [
      'an undeclared status',
      'listPets',
      response(404, RATE_LIMIT, { code: 'not_found', message: 'No.', status: 404 }),
      /declares no 404/,
    ],
    [
      'a server error from a probe, which declares none',
      'getHealth',
      response(500, {}, { code: 'internal_error', message: 'Oops.', status: 500 }),
      /declares no 500/,
    ],
    ['a missing required header', 'getPet', response(200, RATE_LIMIT, PET), /Deprecation is required/],
    [
      'a header off its const',
      'getPet',
      response(200, { ...RATE_LIMIT, ...DEPRECATION, Sunset: 'soon' }, PET),
      /Sunset/,
    ],
    [
      'an integer header written as a fraction',
      'listPets',
      response(200, { ...RATE_LIMIT, 'X-RateLimit-Limit': '60.0' }, []),
      /X-RateLimit-Limit/,
    ],
    [
      'a next link without a cursor',
      'listPets',
      response(200, { ...RATE_LIMIT, Link: '</v1/pets?limit=20>; rel="next"' }, []),
      /Link/,
    ],
    [
      'an undeclared media type',
      'listPets',
      response(200, { ...RATE_LIMIT, 'Content-Type': 'text/html' }, []),
      /text\/html is not declared/,
    ],
    [
      'a body off its schema',
      'getPet',
      response(200, { ...RATE_LIMIT, ...DEPRECATION }, { ...PET, status: 'lost' }),
      /body \/status/,
    ],
    ['a page of more than 100 animals', 'listPets', response(200, RATE_LIMIT, Array(101).fill(PET)), /body/],
    ['a body that is not JSON', 'listPets', { ...response(200, RATE_LIMIT, undefined), text: '<html>' }, /not JSON/],
  ])('reports %s', (_, operationId, answer, problem) => {
    expect(conformanceProblems(operationId, answer).join('\n')).toMatch(problem);
  });
});

describe('errorBodyProblems', () => {
  it('finds nothing wrong with the Error body', () => {
    expect(
      errorBodyProblems(response(404, {}, { code: 'not_found', message: 'No animal has the id 42.', status: 404 })),
    ).toEqual([]);
  });

  it.each<[string, ApiResponse, RegExp]>([
    [
      'a problem+json body',
      response(404, { 'Content-Type': 'application/problem+json' }, { code: 'not_found', message: 'No.', status: 404 }),
      /problem\+json/,
    ],
    ['an undocumented code', response(404, {}, { code: 'NO_PATH_MATCHED', message: 'No.', status: 404 }), /code/],
    [
      'an extra field',
      response(400, {}, { code: 'validation_failed', message: 'No.', status: 400, stack: 'at x' }),
      /additional/,
    ],
    [
      'a status other than the HTTP status',
      response(404, {}, { code: 'not_found', message: 'No.', status: 400 }),
      /differs/,
    ],
    ['an empty message', response(401, {}, { code: 'unauthorized', message: '', status: 401 }), /message/],
  ])('reports %s', (_, answer, problem) => {
    expect(errorBodyProblems(answer).join('\n')).toMatch(problem);
  });
});
