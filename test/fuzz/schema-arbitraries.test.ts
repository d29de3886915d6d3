// The fuzzer's arbitraries keep their word on the keywords they generate for: every valid value
// passes the contract module's own JSON Schema validation, every invalid one fails it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../contract/document.ts';
import { schemaCompiler } from '../../contract/schemas.ts';
import { schemaArbitraries } from '../../fuzz/schema-arbitraries.ts';

const schemas: Record<string, Record<string, unknown>> = {
  Bounded: { type: 'integer', minimum: -5, maximum: 12 },
  Exclusive: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
  Stepped: { type: 'integer', minimum: 0, maximum: 100, multipleOf: 5 },
  Word: { type: 'string', minLength: 2, maxLength: 8, pattern: '^[a-z]+$' },
  // A character beyond U+FFFF by a negated class that takes no ASCII one, which fast-check's
  // stringMatching cannot build (it would draw ASCII characters forever).
  Visible: { type: 'string', maxLength: 4, pattern: '^[^\0-\x1F]*(?:[!-~]|[^\0-\uD7FF\uE000-\uFFFF])[^\0-\x1F]*$' },
  Day: { type: 'string', format: 'date' },
  Moment: { type: 'string', format: 'date-time' },
  Mail: { type: 'string', format: 'email' },
  Colour: { type: 'string', enum: ['red', 'green'] },
  Fixed: { const: 'only' },
  Flag: { type: 'boolean' },
  Maybe: { type: ['string', 'null'], maxLength: 3 },
  Tags: { type: 'array', items: { $ref: '#/components/schemas/Colour' }, minItems: 1, maxItems: 2, uniqueItems: true },
  Either: { oneOf: [{ $ref: '#/components/schemas/Bounded' }, { $ref: '#/components/schemas/Word' }] },
  Thing: {
    type: 'object',
    required: ['word', 'tags'],
    additionalProperties: false,
    properties: {
      word: { $ref: '#/components/schemas/Word' },
      tags: { $ref: '#/components/schemas/Tags' },
      count: { $ref: '#/components/schemas/Bounded' },
    },
  },
  Named: { type: 'object', required: ['word'], properties: { word: { $ref: '#/components/schemas/Word' } } },
  Both: {
    allOf: [
      { $ref: '#/components/schemas/Named' },
      { type: 'object', required: ['size'], properties: { size: { $ref: '#/components/schemas/Bounded' } } },
    ],
  },
};
const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Schemas', version: '1.0.0' },
  paths: {},
  components: { schemas },
};

const compiler = schemaCompiler(document);
const { validValues, invalidValues } = schemaArbitraries(document);
const validatorOf = (name: string) => compiler.compile({ $ref: compiler.ref(schemas[name] as object) });

describe('schemaArbitraries', () => {
  it.each(Object.keys(schemas))('generates only values %s accepts', (name) => {
    const accepts = validatorOf(name);
    fc.assert(
      fc.property(validValues(schemas[name]), (value) => accepts(value)),
      { numRuns: 200, seed: 1 },
    );
  });

  it.each(Object.keys(schemas).filter((name) => name !== 'Either' && name !== 'Both'))(
    'generates as JSON only values %s rejects, each naming its flaw',
    (name) => {
      const accepts = validatorOf(name);
      const invalid = invalidValues(schemas[name], 'json');
      expect(invalid, `invalid values of ${name}`).toBeDefined();
      fc.assert(
        fc.property(invalid as fc.Arbitrary<{ value: unknown; flaw: string }>, ({ value, flaw }) => {
          expect(flaw).not.toBe('');
          return !accepts(value);
        }),
        { numRuns: 200, seed: 1 },
      );
    },
  );

  it.each<[string, string[]]>([
    ['Bounded', ['abc', ' ', '1.5', '-6', '13']],
    ['Colour', ['RED', ' red']],
    ['Flag', ['yes', 'no', '1', 'TRUE']],
  ])('generates as text values %s refuses once read as its type', (name, examples) => {
    const invalid = invalidValues(schemas[name], 'text');
    expect(invalid).toBeDefined();
    const seen = fc
      .sample(invalid as fc.Arbitrary<{ value: unknown }>, { numRuns: 500, seed: 7 })
      .map(({ value }) => value);
    for (const value of seen) expect(typeof value).toBe('string');
    expect(seen.some((value) => examples.includes(value as string))).toBe(true);
  });

  it('has no invalid text for a string that any text satisfies', () => {
    expect(invalidValues({ type: 'string' }, 'text')).toBeUndefined();
  });
});
