import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../contract/error-codes.ts';
import { ERROR_CODES_MARKER, errorCodeTable } from '../../scripts/pipeline/rules-prose.ts';
import {
  componentSchema,
  contract,
  jsonContent,
  keywords,
  namedExamples,
  propertyOf,
  protectedOperations,
  protectedResponses,
  resolve,
  response,
} from '../support/contract-document.ts';

/** The error answers of the operations behind the key; a probe's 503 has a body of its own (test/openapi/health.test.ts). */
const errorResponses = protectedResponses.filter(({ status }) => Number(status) >= 400);

const decidedCodes = [
  'validation_failed',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'invalid_cursor',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'key_banned',
  'gone',
  'internal_error',
  'invalid_idempotency_key',
  'idempotency_key_in_progress',
  'idempotency_key_reused',
];

const enumCodes = () => keywords(propertyOf(componentSchema('Error'), 'code')).enum as string[];

/** Each code with its status and meaning, as `x-error-codes` beside the enum states them. */
const codeRules = errorCodes(contract);

/** Each code with the status of the error responses whose examples show it. */
const exampleStatuses = [
  ...new Map(
    errorResponses.flatMap(({ status, response: declared }) =>
      namedExamples(jsonContent(declared)).map(([, example]) => {
        const { code } = example.value as { code: string };
        return [`${code} ${status}`, { code, status: Number(status) }] as const;
      }),
    ),
  ).values(),
];

function exampleCodes(operationId: string, status: string): string[] {
  const codes = namedExamples(jsonContent(response(operationId, status))).map(
    ([, example]) => (example.value as { code: string }).code,
  );
  return [...new Set(codes)].sort();
}

describe('error responses', () => {
  it.each(errorResponses)(
    '$operationId $status has the Error body as application/json only',
    ({ response: declared }) => {
      expect(Object.keys(declared.content ?? {})).toEqual(['application/json']);
      expect(resolve(jsonContent(declared).schema ?? {})).toBe(componentSchema('Error'));
    },
  );

  it.each(errorResponses)(
    '$operationId $status examples repeat the HTTP status in status',
    ({ status, response: declared }) => {
      const examples = namedExamples(jsonContent(declared));
      expect(examples).not.toHaveLength(0);
      for (const [, example] of examples) expect(example.value).toMatchObject({ status: Number(status) });
    },
  );

  it.each([
    ['createPet', '400'],
    ['getPet', '404'],
    ...protectedOperations.flatMap(({ operationId }) => [
      [operationId, '401'],
      [operationId, '429'],
    ]),
  ])('%s declares %s', (operationId, status) => {
    expect(() => response(operationId, status)).not.toThrow();
  });
});

describe('error codes', () => {
  it('enumerates at least the decided codes on Error.code', () => {
    expect(enumCodes()).toEqual(expect.arrayContaining(decidedCodes));
  });

  it('gives every code of Error.code, in its order, a status and a meaning in x-error-codes', () => {
    expect(codeRules.map(({ code }) => code)).toEqual(enumCodes());
  });

  it('shows the docs the table of codes written from x-error-codes, in place of its marker', () => {
    expect(contract.info.description).toContain(errorCodeTable(codeRules));
    expect(contract.info.description).not.toContain(ERROR_CODES_MARKER);
  });

  it.each(exampleStatuses)(
    'gives $code the status $status in x-error-codes, as its examples answer it',
    ({ code, status }) => {
      expect(codeRules.find((rule) => rule.code === code)?.status).toBe(status);
    },
  );

  it.each([
    ['listPets', '400', ['invalid_cursor', 'validation_failed']],
    ['createPet', '400', ['invalid_idempotency_key', 'malformed_json', 'validation_failed']],
    ['createOrder', '400', ['invalid_idempotency_key', 'malformed_json', 'validation_failed']],
    ['createPet', '409', ['idempotency_key_in_progress']],
    ['createOrder', '409', ['idempotency_key_in_progress']],
    ['createPet', '422', ['idempotency_key_reused']],
    ['createOrder', '422', ['idempotency_key_reused']],
    ['getPet', '400', ['validation_failed']],
    ['getPet', '404', ['not_found']],
    ['getPet', '410', ['gone']],
    ['createPet', '413', ['payload_too_large']],
    ['createPet', '415', ['unsupported_media_type']],
    ...protectedOperations.flatMap(({ operationId }) => [
      [operationId, '401', ['unauthorized']],
      [operationId, '429', ['key_banned', 'rate_limited']],
    ]),
  ] as Array<[string, string, string[]]>)('%s %s shows the codes %j in its examples', (operationId, status, codes) => {
    expect(exampleCodes(operationId, status)).toEqual(codes);
  });
});
