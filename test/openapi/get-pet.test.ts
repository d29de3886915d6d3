import { describe, expect, it } from 'vitest';
import {
  componentSchema,
  header,
  jsonContent,
  keywords,
  operation,
  parameter,
  resolve,
  response,
  responses,
} from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

const largestExactInteger = 9007199254740991;

describe('getPet', () => {
  it('is GET /pets/{petId}', () => {
    expect(operation('getPet')).toMatchObject({ method: 'GET', path: '/pets/{petId}' });
  });

  it('takes a required path parameter petId, an integer of format int64', () => {
    const petId = parameter('getPet', 'petId');
    expect(petId).toMatchObject({ in: 'path', required: true });
    expect(keywords(petId.schema)).toMatchObject({ type: 'integer', format: 'int64' });
  });

  it('has no request body', () => {
    expect(operation('getPet').operation.requestBody).toBeUndefined();
  });

  it('answers 200 with a Pet', () => {
    expect(resolve(jsonContent(response('getPet', '200')).schema ?? {})).toBe(componentSchema('Pet'));
  });

  it.each(['401', '404'])('answers %s with an Error body', (status) => {
    expect(resolve(jsonContent(response('getPet', status)).schema ?? {})).toBe(componentSchema('Error'));
  });

  it('declares exactly the responses 200, 400, 401, 404, 410, 429, 500 and 503', () => {
    expect(
      responses('getPet')
        .map(([status]) => status)
        .sort(),
    ).toEqual(['200', '400', '401', '404', '410', '429', '500', '503']);
  });

  it('is flagged deprecated', () => {
    expect(operation('getPet').operation.deprecated).toBe(true);
  });

  it('names its replacement, GET /pets with the status filter', () => {
    expect(operation('getPet').operation.description).toMatch(/GET \/pets` with the `status` filter/);
  });
});

describe('getPet petId', () => {
  const petId = () => parameter('getPet', 'petId').schema ?? {};

  // A path segment arrives as text; an integer schema cannot reject `042` or `+42`, so the rule is stated.
  it('tells clients to write petId as a canonical positive decimal integer', () => {
    expect(parameter('getPet', 'petId').description).toMatch(/canonical positive decimal integer/);
  });

  it.each([1, 42, largestExactInteger])('accepts %s', (value) => {
    expect(accepts(petId(), value)).toBe(true);
  });

  it.each([0, -1, 1.5, largestExactInteger + 1])('rejects %s', (value) => {
    expect(accepts(petId(), value)).toBe(false);
  });

  it('answers 400 with an Error body for a petId that is not a positive integer', () => {
    expect(resolve(jsonContent(response('getPet', '400')).schema ?? {})).toBe(componentSchema('Error'));
  });
});

describe('getPet deprecation', () => {
  it('carries x-sunset "2030-12-05"', () => {
    expect(operation('getPet').operation['x-sunset']).toBe('2030-12-05');
  });

  it('answers 410 with an Error body from the sunset on', () => {
    expect(resolve(jsonContent(response('getPet', '410')).schema ?? {})).toBe(componentSchema('Error'));
  });

  const deprecationHeaders = responses('getPet').flatMap(([status, declared]) =>
    [
      { name: 'Deprecation', value: '@1795219200', nearMiss: '@1795219201' },
      { name: 'Sunset', value: 'Thu, 05 Dec 2030 00:00:00 GMT', nearMiss: 'Fri, 06 Dec 2030 00:00:00 GMT' },
      { name: 'Link', value: '</v1/pets>; rel="successor-version"', nearMiss: '</v1/pets>; rel="next"' },
    ].map((expected) => ({ status, declared, ...expected })),
  );

  it.each(deprecationHeaders)(
    'declares $name: $value, required, on the $status response',
    ({ declared, name, value, nearMiss }) => {
      const declaredHeader = header(declared, name);
      expect(declaredHeader?.required).toBe(true);
      expect(accepts(declaredHeader?.schema ?? {}, value)).toBe(true);
      expect(accepts(declaredHeader?.schema ?? {}, nearMiss)).toBe(false);
    },
  );

  it('dates x-sunset and the Sunset header to the same instant', () => {
    const sunset = header(response('getPet', '200'), 'Sunset')?.example;
    expect(Date.parse(sunset)).toBe(Date.parse(`${operation('getPet').operation['x-sunset']}T00:00:00Z`));
  });

  it('names in x-successor the operation the successor Link points to, listPets', () => {
    const successor = operation(operation('getPet').operation['x-successor'] as string);
    const link = header(response('getPet', '200'), 'Link')?.example;
    expect(successor.operationId).toBe('listPets');
    expect(link).toBe(`</v1${successor.path}>; rel="successor-version"`);
  });
});
