// fast-check arbitraries built from the JSON Schemas of an OpenAPI 3.1 document: `validValues`
// yields values a schema accepts, `invalidValues` values that break exactly one of its rules, each
// with that rule named, so a failure says what was tried. They follow the keywords a schema uses
// (types, bounds, lengths, patterns, enums, formats, required and unknown properties, items,
// combinations); where a keyword has no generator the values only come close, and the fuzzer
// judges each request by the contract's own validators, never by what an arbitrary meant.
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import fc from 'fast-check';
import { type JsonObject, resolveRef } from '../contract/document.ts';

type JsonSchema = JsonObject;

/** A value the schema rejects, and the one rule it breaks. */
export interface Invalid {
  value: unknown;
  flaw: string;
  /** The property at fault, for an object's flaw (`name`, or an added unknown one). */
  field?: string;
}

/** Where a value travels: as JSON, or as the text of a query, path or header parameter. */
export type Channel = 'json' | 'text';

export interface SchemaArbitraries {
  /** The schema's own keywords: `$ref` followed, `allOf`'s schemas merged in. */
  keywords(schema: unknown): JsonSchema;
  /** Values the schema accepts. */
  validValues(schema: unknown): fc.Arbitrary<unknown>;
  /** Values that break one rule of the schema, sent as JSON or as parameter text; none when it has no rule to break. */
  invalidValues(schema: unknown, channel: Channel): fc.Arbitrary<Invalid> | undefined;
}

/** The longest string generated where a schema sets no `maxLength`. */
const UNBOUNDED_LENGTH = 200;
/** The most items generated where a schema sets no `maxItems`, or a larger one. */
const MOST_ITEMS = 5;

export const codePoints = (text: string) => [...text].length;

/** `a` or `an` before a word. */
export const withArticle = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** The schema's types: its `type`, as a list; those its `enum` or `const` values have when it has none. */
export function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  const values: unknown[] = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  return [...new Set(values.map(jsonType))];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * The range of numbers the schema allows, closed: an exclusive bound becomes the next integer
 * inside it for an integer, and stays itself, marked excluded, for a number. Without bounds, the
 * integers JSON carries exactly (or those of `format: int32`).
 */
export function numberBounds(
  schema: JsonSchema,
  integer: boolean,
): { min: number; max: number; minExcluded: boolean; maxExcluded: boolean } {
  const int32 = schema.format === 'int32';
  const bound = (inclusive: unknown, exclusive: unknown, fallback: number, inward: 1 | -1) => {
    if (typeof exclusive === 'number')
      return integer
        ? { value: inward === 1 ? Math.floor(exclusive) + 1 : Math.ceil(exclusive) - 1, excluded: false }
        : { value: exclusive, excluded: true };
    const value = typeof inclusive === 'number' ? inclusive : fallback;
    return { value: integer ? (inward === 1 ? Math.ceil(value) : Math.floor(value)) : value, excluded: false };
  };
  const lower = bound(schema.minimum, schema.exclusiveMinimum, int32 ? -(2 ** 31) : Number.MIN_SAFE_INTEGER, 1);
  const upper = bound(schema.maximum, schema.exclusiveMaximum, int32 ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER, -1);
  return { min: lower.value, max: upper.value, minExcluded: lower.excluded, maxExcluded: upper.excluded };
}

const patternParser = new RegExpParser({ ecmaVersion: 2025 });
const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, index) => String.fromCharCode(0x20 + index));
/** fastCheckBuilds' answers by pattern: a schema's pattern is asked again for each arbitrary built from it. */
const buildsBySource = new Map<string, boolean>();

/**
 * Whether fast-check's `stringMatching` can build strings from `pattern`: it has no lookaround, and
 * each negated class takes a printable ASCII character (fast-check draws a negated class's
 * characters from printable ASCII and filters them, forever when none fits: `[^\0-\uFFFF]`).
 */
function fastCheckBuilds(pattern: RegExp): boolean {
  const known = buildsBySource.get(pattern.source);
  if (known !== undefined) return known;
  let builds = true;
  visitRegExpAST(patternParser.parseLiteral(String(pattern)), {
    onAssertionEnter(node) {
      if (node.kind === 'lookahead' || node.kind === 'lookbehind') builds = false;
    },
    onCharacterClassEnter(node) {
      const negated = new RegExp(`^${node.raw}$`, 'u');
      if (node.negate && !PRINTABLE_ASCII.some((character) => negated.test(character))) builds = false;
    },
  });
  buildsBySource.set(pattern.source, builds);
  return builds;
}

export function stringRules(schema: JsonSchema): { minLength: number; maxLength: number; pattern?: RegExp } {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return {
    minLength,
    maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(minLength, UNBOUNDED_LENGTH),
    // JSON Schema patterns are ECMA-262 regular expressions matched on code points.
    pattern: typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined,
  };
}

/**
 * Any Unicode scalar value, as one character: what fast-check's `binary` unit gives, without the
 * table of every code point it builds first (over a second, on the first use in a process).
 */
const anyCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((code) => String.fromCodePoint(code));

/**
 * Characters that break text patterns: Unicode white space of several kinds, C0 and C1 control
 * characters, and a few ordinary letters so that mixed strings occur too.
 */
export const PATTERN_BREAKERS = [
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

/** Strings of the formats JSON Schema and ajv-formats define, for the ones an API commonly uses. */
export function formatted(format: string): fc.Arbitrary<string> | undefined {
  const dates = fc.date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('2999-12-31T23:59:59Z'),
    noInvalidDate: true,
  });
  switch (format) {
    case 'date-time':
      return dates.map((date) => date.toISOString());
    case 'date':
      return dates.map((date) => date.toISOString().slice(0, 10));
    case 'time':
      return dates.map((date) => `${date.toISOString().slice(11, 19)}Z`);
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'uri-reference':
      return fc.oneof(
        fc.webUrl(),
        fc.webPath().map((path) => path || '/'),
      );
    case 'uuid':
      return fc.uuid();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'hostname':
      return fc.domain();
    case 'byte':
      return fc.base64String();
    default:
      return undefined;
  }
}

/** Strings no format `formatted` knows accepts. */
export const NOT_OF_ANY_FORMAT = ['not a value of this format', '2024-13-45T99:99:99Z', 'x@', '::::', ''];

export function schemaArbitraries(document: object): SchemaArbitraries {
  const keywords = (schema: unknown): JsonSchema => resolveRef<JsonSchema>(document, schema ?? {});

  /** The keywords of `allOf`'s schemas and the schema's own, merged: one object to generate from. */
  function merged(schema: JsonSchema): JsonSchema {
    if (!Array.isArray(schema.allOf)) return schema;
    const { allOf, ...own } = schema;
    const whole: JsonSchema = { ...own };
    const properties: Record<string, unknown> = { ...(own.properties as object) };
    const required = [...((own.required as string[] | undefined) ?? [])];
    for (const part of (allOf as unknown[]).map((each) => merged(keywords(each)))) {
      Object.assign(whole, part);
      Object.assign(properties, part.properties);
      required.push(...((part.required as string[] | undefined) ?? []));
    }
    return { ...whole, properties, required };
  }

  function validValues(input: unknown): fc.Arbitrary<unknown> {
    const schema = merged(keywords(input));
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if ('const' in schema) return fc.constant(schema.const);
    const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (Array.isArray(branches)) return fc.oneof(...branches.map(validValues));
    const types = typesOf(schema);
    if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
    return fc.oneof(...types.map((type) => validOfType(schema, type)));
  }

  function validOfType(schema: JsonSchema, type: string): fc.Arbitrary<unknown> {
    switch (type) {
      case 'integer':
      case 'number': {
        const { min, max, minExcluded, maxExcluded } = numberBounds(schema, type === 'integer');
        const values =
          type === 'integer'
            ? fc.integer({ min, max })
            : fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
        const bounds = [...(minExcluded ? [] : [min]), ...(maxExcluded ? [] : [max])];
        const multiple = typeof schema.multipleOf === 'number' ? schema.multipleOf : undefined;
        const within =
          bounds.length === 0
            ? values
            : fc.oneof({ arbitrary: values, weight: 4 }, { arbitrary: fc.constantFrom(...bounds), weight: 1 });
        return multiple === undefined
          ? within
          : within
              .map((value) => Math.round(value / multiple) * multiple)
              .filter((value) => value >= min && value <= max);
      }
      case 'string':
        return validStrings(schema);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const maxLength = Math.max(
          minLength,
          typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, MOST_ITEMS) : MOST_ITEMS,
        );
        const items = fc.array(validValues(schema.items), { minLength, maxLength });
        return schema.uniqueItems === true
          ? items.filter((values) => new Set(values.map((value) => JSON.stringify(value))).size === values.length)
          : items;
      }
      case 'object': {
        const properties = (schema.properties ?? {}) as Record<string, unknown>;
        const model = Object.fromEntries(
          Object.entries(properties).map(([name, property]) => [name, validValues(property)]),
        );
        const { fewest, most } = propertyCounts(schema);
        return fc
          .record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [] })
          .map((value) => ({ ...value }))
          .filter((value) => Object.keys(value).length >= fewest && Object.keys(value).length <= most);
      }
      default:
        throw new Error(`No generator for schema type ${JSON.stringify(type)}`);
    }
  }

  function validStrings(schema: JsonSchema): fc.Arbitrary<string> {
    const { minLength, maxLength, pattern } = stringRules(schema);
    const fits = (text: string) =>
      codePoints(text) >= minLength && codePoints(text) <= maxLength && (pattern?.test(text) ?? true);
    const format = typeof schema.format === 'string' ? formatted(schema.format) : undefined;
    if (format) return format.filter(fits);
    // Crossing over to the first kind when shrinking, a failing string shrinks to a short plain one.
    return fc
      .oneof(
        { withCrossShrink: true },
        { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }), weight: 2 },
        { arbitrary: fc.string({ unit: anyCharacter, minLength, maxLength }), weight: 3 },
        { arbitrary: fc.string({ unit: anyCharacter, minLength: maxLength, maxLength }), weight: 1 },
        // The strings above, filtered below, cover a pattern fast-check cannot build strings from.
        ...(pattern && fastCheckBuilds(pattern) ? [{ arbitrary: fc.stringMatching(pattern), weight: 2 }] : []),
      )
      .filter(fits);
  }

  /** JSON values of every other type than those of `types`. */
  function otherTypes(types: string[]): fc.Arbitrary<Invalid> | undefined {
    const byType: Record<string, fc.Arbitrary<unknown>> = {
      string: fc.string({ maxLength: 10 }),
      integer: fc.integer(),
      number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)),
      boolean: fc.boolean(),
      null: fc.constant(null),
      array: fc.array(fc.integer(), { maxLength: 3 }),
      object: fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
    };
    // A number schema takes integers too.
    const allowed = new Set(types.includes('number') ? [...types, 'integer'] : types);
    const others = Object.entries(byType).filter(([name]) => !allowed.has(name));
    if (others.length === 0) return undefined;
    return fc.oneof(
      ...others.map(([name, arbitrary]) =>
        arbitrary.map((value) => ({ value, flaw: `${withArticle(name)} instead of ${types.join(' or ')}` })),
      ),
    );
  }

  function invalidNumbers(schema: JsonSchema, integer: boolean, channel: Channel): fc.Arbitrary<Invalid>[] {
    const { min, max, minExcluded, maxExcluded } = numberBounds(schema, integer);
    const asChannel = (value: number) => (channel === 'text' ? String(value) : value);
    const flaws: fc.Arbitrary<Invalid>[] = [];
    if (integer) {
      flaws.push(
        fc
          .double({ min, max, noNaN: true })
          .filter((value) => !Number.isInteger(value))
          .map((value) => ({ value: asChannel(value), flaw: 'not a whole number' })),
      );
    }
    if (typeof schema.minimum === 'number' || typeof schema.exclusiveMinimum === 'number') {
      const below = integer
        ? fc.integer({ min: Number.MIN_SAFE_INTEGER, max: min - 1 })
        : fc.double({ max: min, maxExcluded: !minExcluded, noNaN: true, noDefaultInfinity: true });
      flaws.push(below.map((value) => ({ value: asChannel(value), flaw: `below the minimum ${min}` })));
    }
    if (typeof schema.maximum === 'number' || typeof schema.exclusiveMaximum === 'number') {
      // Above 2^53-1 every double is an integer, so these stay whole numbers, only too large.
      const above =
        integer && max < Number.MAX_SAFE_INTEGER
          ? fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER })
          : fc.double({
              min: integer ? 2 ** 53 : max,
              minExcluded: integer || !maxExcluded,
              noNaN: true,
              noDefaultInfinity: true,
            });
      flaws.push(
        above.map((value) => ({
          value: channel === 'text' && Number.isInteger(value) ? BigInt(value).toString() : asChannel(value),
          flaw: `above the maximum ${max}`,
        })),
      );
    }
    if (channel === 'text') {
      flaws.push(
        fc
          .string({ unit: 'grapheme-ascii', maxLength: 12 })
          .filter((text) => text.trim() === '' || Number.isNaN(Number(text)))
          .map((value) => ({ value, flaw: 'not a number' })),
      );
    }
    return flaws;
  }

  function invalidStrings(schema: JsonSchema): fc.Arbitrary<Invalid>[] {
    const { minLength, maxLength, pattern } = stringRules(schema);
    const flaws: fc.Arbitrary<Invalid>[] = [];
    if (minLength > 0) {
      flaws.push(
        fc
          .string({ unit: anyCharacter, maxLength: minLength - 1 })
          .map((value) => ({ value, flaw: `shorter than ${minLength} characters` })),
      );
    }
    if (typeof schema.maxLength === 'number') {
      flaws.push(
        fc
          .string({ unit: anyCharacter, minLength: maxLength + 1, maxLength: maxLength + 20 })
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
            maxLength: Math.max(1, Math.min(maxLength, 12)),
          })
          .filter((text) => !pattern.test(text))
          .map((value) => ({ value, flaw: `not matching the pattern ${pattern.source}` })),
      );
    }
    if (typeof schema.format === 'string' && formatted(schema.format)) {
      const format = schema.format;
      flaws.push(
        fc.constantFrom(...NOT_OF_ANY_FORMAT).map((value) => ({ value, flaw: `not of the format ${format}` })),
      );
    }
    return flaws;
  }

  function invalidArrays(schema: JsonSchema): fc.Arbitrary<Invalid>[] {
    const flaws: fc.Arbitrary<Invalid>[] = [];
    const item = validValues(schema.items);
    if (typeof schema.minItems === 'number' && schema.minItems > 0) {
      const fewest = schema.minItems;
      flaws.push(
        fc.array(item, { maxLength: fewest - 1 }).map((value) => ({ value, flaw: `fewer than ${fewest} items` })),
      );
    }
    if (typeof schema.maxItems === 'number') {
      const most = schema.maxItems;
      flaws.push(
        fc
          .array(item, { minLength: most + 1, maxLength: most + 3 })
          .map((value) => ({ value, flaw: `more than ${most} items` })),
      );
    }
    const invalidItem = schema.items === undefined ? undefined : invalidValues(schema.items, 'json');
    if (invalidItem) {
      flaws.push(
        fc
          .tuple(fc.array(item, { maxLength: 2 }), invalidItem)
          .map(([items, { value, flaw }]) => ({ value: [...items, value], flaw: `an item ${flaw}` })),
      );
    }
    return flaws;
  }

  function invalidObjects(schema: JsonSchema): fc.Arbitrary<Invalid>[] {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const required = (schema.required as string[] | undefined) ?? [];
    const valid = validOfType(schema, 'object') as fc.Arbitrary<Record<string, unknown>>;
    const flaws: fc.Arbitrary<Invalid>[] = [];
    for (const name of required) {
      flaws.push(
        valid.map(({ [name]: _, ...rest }) => ({ value: rest, flaw: `missing the required ${name}`, field: name })),
      );
    }
    // Fewer fields than `minProperties` (a merge patch that names none: `{}`), where leaving out
    // optional fields can do it without leaving out a required one, which is a flaw of its own.
    const { fewest } = propertyCounts(schema);
    if (fewest > 0 && required.length < fewest) {
      flaws.push(
        valid.map((value) => {
          const kept = Object.entries(value).sort(
            ([a], [b]) => Number(!required.includes(a)) - Number(!required.includes(b)),
          );
          return { value: Object.fromEntries(kept.slice(0, fewest - 1)), flaw: `with fewer than ${fewest} fields` };
        }),
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
    return flaws;
  }

  function invalidValues(input: unknown, channel: Channel): fc.Arbitrary<Invalid> | undefined {
    const schema = merged(keywords(input));
    const types = typesOf(schema);
    const flaws: fc.Arbitrary<Invalid>[] = [];
    // As text, any value is a string, and a string schema is broken only by its own rules.
    const wrongType = channel === 'json' ? otherTypes(types) : undefined;
    if (wrongType && types.length > 0) flaws.push(wrongType);
    if (Array.isArray(schema.enum) || 'const' in schema) {
      const allowed = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : [schema.const];
      const asText = allowed.map((value) => String(value));
      flaws.push(
        fc
          .oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom(...asText.map((value) => value.toUpperCase()), ...asText.map((value) => ` ${value}`)),
          )
          .filter((text) => !asText.includes(text))
          .map((value) => ({ value, flaw: `outside the enumeration ${asText.join(', ')}` })),
      );
    } else if (types.length === 1) {
      const [type] = types;
      if (type === 'integer' || type === 'number') flaws.push(...invalidNumbers(schema, type === 'integer', channel));
      if (type === 'string') flaws.push(...invalidStrings(schema));
      if (type === 'boolean' && channel === 'text')
        flaws.push(fc.constantFrom('yes', 'no', '1', 'TRUE').map((value) => ({ value, flaw: 'not true or false' })));
      if (type === 'array' && channel === 'json') flaws.push(...invalidArrays(schema));
      if (type === 'object' && channel === 'json') flaws.push(...invalidObjects(schema));
    }
    return flaws.length === 0 ? undefined : fc.oneof(...flaws);
  }

  return { keywords: (schema) => merged(keywords(schema)), validValues, invalidValues };
}

/** How many fields an object of `schema` has at least and at most (`minProperties`, `maxProperties`). */
function propertyCounts(schema: JsonSchema): { fewest: number; most: number } {
  return {
    fewest: typeof schema.minProperties === 'number' ? schema.minProperties : 0,
    most: typeof schema.maxProperties === 'number' ? schema.maxProperties : Number.POSITIVE_INFINITY,
  };
}
