// fast-check arbitraries built from the JSON Schemas of the contract, for the subset it uses:
// integer bounds, string length, pattern and enum, objects with required properties and no
// others. `validValues` yields values a schema accepts; `invalidValues` yields values that
// break exactly one of its rules, each with that rule named, so a failure says what was tried.
import fc from 'fast-check';
import { resolve } from '../contract-document.ts';

export type Schema = Record<string, unknown>;

/** A value the schema rejects, and the one rule it breaks. */
export interface Invalid {
  value: unknown;
  flaw: string;
  /** The property at fault, for an object's flaw (`name`, or an added unknown one). */
  field?: string;
}

/** Where a value travels: as JSON, or as the text of a query or path parameter. */
export type Channel = 'json' | 'text';

function keywords(schema: unknown): Schema {
  return resolve(schema as Schema);
}

const codePoints = (text: string) => [...text].length;

function integerBounds(schema: Schema): { min: number; max: number } {
  return {
    min: typeof schema.minimum === 'number' ? schema.minimum : Number.MIN_SAFE_INTEGER,
    max: typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER,
  };
}

function stringRules(schema: Schema): { minLength: number; maxLength: number; pattern?: RegExp } {
  return {
    minLength: typeof schema.minLength === 'number' ? schema.minLength : 0,
    maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : 200,
    // JSON Schema patterns are ECMA-262 regular expressions matched on code points.
    pattern: typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined,
  };
}

/**
 * Characters that break text patterns: Unicode white space of several kinds, C0 and C1 control
 * characters, and a few ordinary letters so that mixed strings occur too.
 */
const PATTERN_BREAKERS = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u00a0',
  '\u1680',
  '\u2003',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009f',
  'a',
  'Z',
  '7',
  'é',
  '🐈',
];

export function validValues(input: unknown): fc.Arbitrary<unknown> {
  const schema = keywords(input);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  switch (schema.type) {
    case 'integer': {
      const { min, max } = integerBounds(schema);
      return fc.oneof(
        { arbitrary: fc.integer({ min, max }), weight: 4 },
        { arbitrary: fc.constantFrom(min, max), weight: 1 },
      );
    }
    case 'string': {
      const { minLength, maxLength, pattern } = stringRules(schema);
      const candidates = fc.oneof(
        { arbitrary: fc.string({ unit: 'binary', minLength, maxLength }), weight: 3 },
        { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }), weight: 2 },
        { arbitrary: fc.string({ unit: 'binary', minLength: maxLength, maxLength }), weight: 1 },
        // fast-check builds strings from a pattern without lookarounds only; the strings above,
        // filtered below, cover a pattern with them.
        ...(pattern && !/\(\?<?[=!]/.test(pattern.source)
          ? [{ arbitrary: fc.stringMatching(pattern), weight: 2 }]
          : []),
      );
      return candidates.filter(
        (text) => codePoints(text) >= minLength && codePoints(text) <= maxLength && (pattern?.test(text) ?? true),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValues(schema.items), {
        maxLength: typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, 5) : 5,
      });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, validValues(property)]),
      );
      return fc
        .record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [] })
        .map((value) => ({ ...value }));
    }
    default:
      throw new Error(`No generator for schema type ${JSON.stringify(schema.type)}`);
  }
}

/** JSON values of every other type than `type`. */
function otherTypes(type: unknown): fc.Arbitrary<Invalid> {
  const byType: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.string({ maxLength: 10 }),
    integer: fc.integer(),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(fc.integer(), { maxLength: 3 }),
    object: fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  };
  const others = Object.entries(byType).filter(([name]) => name !== type && !(type === 'integer' && name === 'number'));
  return fc.oneof(
    ...others.map(([name, arbitrary]) =>
      arbitrary.map((value) => ({
        value,
        flaw: `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name} instead of ${String(type)}`,
      })),
    ),
  );
}

function invalidIntegers(schema: Schema, channel: Channel): fc.Arbitrary<Invalid> {
  const { min, max } = integerBounds(schema);
  const asChannel = (value: number) => (channel === 'text' ? String(value) : value);
  const flaws: fc.Arbitrary<Invalid>[] = [
    fc
      .double({ min, max, noNaN: true })
      .filter((value) => !Number.isInteger(value))
      .map((value) => ({ value: asChannel(value), flaw: 'not a whole number' })),
  ];
  if (typeof schema.minimum === 'number') {
    flaws.push(
      fc
        .integer({ min: Number.MIN_SAFE_INTEGER, max: min - 1 })
        .map((value) => ({ value: asChannel(value), flaw: `below the minimum ${min}` })),
    );
  }
  if (typeof schema.maximum === 'number') {
    // Above 2^53-1 every double is an integer, so these stay whole numbers, only too large.
    const above =
      max < Number.MAX_SAFE_INTEGER
        ? fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER })
        : fc.double({ min: 2 ** 53, noNaN: true, noDefaultInfinity: true });
    flaws.push(
      above.map((value) => ({
        value: channel === 'text' ? BigInt(value).toString() : value,
        flaw: `above the maximum ${max}`,
      })),
    );
  }
  if (channel === 'json') return fc.oneof(...flaws, otherTypes('integer'));
  // As text, one value has one spelling: plain decimal digits, without sign, padding, fraction or exponent.
  const inRange = fc.integer({ min: Math.max(min, 0), max: Math.min(max, 1_000_000) });
  flaws.push(
    fc
      .oneof(
        inRange.map((value) => `0${value}`),
        inRange.map((value) => `+${value}`),
        inRange.map((value) => `${value}.0`),
        inRange.map((value) => `${value}e0`),
        inRange.map((value) => ` ${value}`),
      )
      .map((value) => ({ value, flaw: 'not written in canonical decimal digits' })),
    fc
      .string({ unit: 'grapheme-ascii', maxLength: 12 })
      .filter((text) => !/^-?[0-9]+$/.test(text))
      .map((value) => ({ value, flaw: 'not a number' })),
  );
  return fc.oneof(...flaws);
}

function invalidStrings(schema: Schema, channel: Channel): fc.Arbitrary<Invalid> | undefined {
  const flaws: fc.Arbitrary<Invalid>[] = channel === 'json' ? [otherTypes('string')] : [];
  if (Array.isArray(schema.enum)) {
    const allowed = schema.enum as unknown[];
    flaws.push(
      fc
        .oneof(
          fc.string({ maxLength: 12 }),
          fc.constantFrom(
            ...allowed.map((value) => String(value).toUpperCase()),
            ...allowed.map((value) => ` ${String(value)}`),
          ),
        )
        .filter((text) => !allowed.includes(text))
        .map((value) => ({ value, flaw: `outside the enumeration ${allowed.join(', ')}` })),
    );
    return fc.oneof(...flaws);
  }
  const { minLength, maxLength, pattern } = stringRules(schema);
  if (minLength > 0) {
    flaws.push(
      fc
        .string({ unit: 'binary', maxLength: minLength - 1 })
        .map((value) => ({ value, flaw: `shorter than ${minLength} characters` })),
    );
  }
  if (typeof schema.maxLength === 'number') {
    flaws.push(
      fc
        .string({ unit: 'binary', minLength: maxLength + 1, maxLength: maxLength + 20 })
        .filter((text) => codePoints(text) > maxLength)
        .map((value) => ({ value, flaw: `longer than ${maxLength} characters` })),
    );
  }
  if (pattern) {
    flaws.push(
      fc
        .string({
          unit: fc.constantFrom(...PATTERN_BREAKERS),
          minLength: Math.max(minLength, 1),
          maxLength: Math.min(maxLength, 12),
        })
        .filter((text) => !pattern.test(text))
        .map((value) => ({ value, flaw: `not matching the pattern ${pattern.source}` })),
    );
  }
  // Any text is a string: a schema without length, pattern or enumeration forbids no parameter value.
  return flaws.length === 0 ? undefined : fc.oneof(...flaws);
}

function invalidObjects(schema: Schema): fc.Arbitrary<Invalid> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required as string[] | undefined) ?? [];
  const valid = validValues(schema) as fc.Arbitrary<Record<string, unknown>>;
  const flaws: fc.Arbitrary<Invalid>[] = [otherTypes('object')];
  for (const name of required) {
    flaws.push(
      valid.map(({ [name]: _, ...rest }) => ({ value: rest, flaw: `missing the required ${name}`, field: name })),
    );
  }
  if (schema.additionalProperties === false) {
    const unknownName = fc.string({ minLength: 1, maxLength: 12 }).filter((name) => !(name in properties));
    flaws.push(
      fc.tuple(valid, unknownName, fc.jsonValue({ maxDepth: 1 })).map(([value, name, extra]) => ({
        value: Object.fromEntries([...Object.entries(value), [name, extra]]),
        flaw: `with the unknown field ${JSON.stringify(name)}`,
        field: name,
      })),
    );
  }
  for (const [name, property] of Object.entries(properties)) {
    const invalidProperty = invalidValues(property, 'json');
    if (!invalidProperty) continue;
    flaws.push(
      fc.tuple(valid, invalidProperty).map(([value, invalid]) => ({
        value: { ...value, [name]: invalid.value },
        flaw: `${name} ${invalid.flaw}`,
        field: name,
      })),
    );
  }
  return fc.oneof(...flaws);
}

/** Values that break one rule of the schema, sent as JSON or as parameter text; none when it has no rule to break. */
export function invalidValues(input: unknown, channel: Channel): fc.Arbitrary<Invalid> | undefined {
  const schema = keywords(input);
  switch (schema.type) {
    case 'integer':
      return invalidIntegers(schema, channel);
    case 'string':
      return invalidStrings(schema, channel);
    case 'object':
      return invalidObjects(schema);
    default:
      throw new Error(`No generator of invalid values for schema type ${JSON.stringify(schema.type)}`);
  }
}
