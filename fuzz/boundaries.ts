// The coverage phase's values for one schema: each boundary and its neighbour one past it
// (lengths, bounds, item counts), each enum member and a value beside the enum, matches and near
// misses of a pattern, values of a format and one that is not, and values of the wrong JSON type.
// Each is tried alone on an otherwise valid request; whether it is valid is for the contract's
// validators to say, so a note only says what the value is.
import fc from 'fast-check';
import type { JsonObject } from '../contract/document.ts';
import type { Channel } from './schema-arbitraries.ts';
import {
  codePoints,
  formatted,
  NOT_OF_ANY_FORMAT,
  numberBounds,
  PATTERN_BREAKERS,
  stringRules,
  typesOf,
  withArticle,
} from './schema-arbitraries.ts';
import type { Values } from './values.ts';

export interface Boundary {
  value: unknown;
  note: string;
}

/** A value of each JSON type, for "the wrong type". */
const OF_TYPE: Record<string, unknown> = {
  string: 'text',
  integer: 7,
  number: 0.5,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

/** Characters tried, in order, to fill a string to a length its pattern still accepts. */
const FILLERS = ['a', 'A', '0', 'x', '1', 'é', '-', '_', '.', ' '];

export function boundaries(values: Values, schema: object, channel: Channel): Boundary[] {
  const own = values.arbitraries.keywords(schema);
  const found: Boundary[] = [];
  const add = (value: unknown, note: string) => found.push({ value, note });
  const types = typesOf(own);

  if (channel === 'json' && types.length > 0) {
    const allowed = new Set(types.includes('number') ? [...types, 'integer'] : types);
    for (const [type, value] of Object.entries(OF_TYPE))
      if (!allowed.has(type)) add(value, `${withArticle(type)} instead of ${types.join(' or ')}`);
  }
  if (Array.isArray(own.enum) || 'const' in own) {
    const members = Array.isArray(own.enum) ? (own.enum as unknown[]) : [own.const];
    for (const member of members) add(member, `the enum member ${JSON.stringify(member)}`);
    add(besideEnum(members), 'a value beside the enum');
    return found;
  }
  for (const type of types) {
    if (type === 'integer' || type === 'number') found.push(...numberBoundaries(own, type === 'integer', channel));
    if (type === 'string') found.push(...stringBoundaries(values, schema, own));
    if (type === 'boolean') {
      add(true, 'true');
      add(false, 'false');
      if (channel === 'text') add('yes', 'neither true nor false');
    }
    if (type === 'array' && channel === 'json') found.push(...arrayBoundaries(values, own));
  }
  return found;
}

/** A value no member of the enum is: a member's other spelling where it has one, else one beside them all. */
function besideEnum(members: unknown[]): unknown {
  const texts = members.filter((member): member is string => typeof member === 'string');
  const recased = texts.map((text) => text.toUpperCase()).find((text) => !texts.includes(text));
  if (recased !== undefined) return recased;
  if (texts.length > 0) return `${texts[0]}-other`;
  const numbers = members.filter((member): member is number => typeof member === 'number');
  return numbers.length > 0 ? Math.max(...numbers) + 1 : 'other';
}

function numberBoundaries(schema: JsonObject, integer: boolean, channel: Channel): Boundary[] {
  const { min, max, minExcluded, maxExcluded } = numberBounds(schema, integer);
  const found: Boundary[] = [];
  const bounded = (keyword: string) => typeof schema[keyword] === 'number';
  if (bounded('minimum') || bounded('exclusiveMinimum')) {
    if (!minExcluded) found.push({ value: min, note: `at the minimum ${min}` });
    found.push({ value: minExcluded ? min : min - 1, note: `one past the minimum ${min}` });
  }
  if (bounded('maximum') || bounded('exclusiveMaximum')) {
    if (!maxExcluded) found.push({ value: max, note: `at the maximum ${max}` });
    // Beyond 2^53 one more is not a different double: the next one up is.
    const above = max + 1 > max ? max + 1 : max * (1 + Number.EPSILON);
    found.push({ value: maxExcluded ? max : above, note: `one past the maximum ${max}` });
  }
  if (!bounded('minimum') && !bounded('exclusiveMinimum') && !bounded('maximum') && !bounded('exclusiveMaximum'))
    found.push({ value: 0, note: 'zero' }, { value: -1, note: 'a negative number' });
  if (typeof schema.multipleOf === 'number')
    found.push({ value: schema.multipleOf * 1.5, note: `not a multiple of ${schema.multipleOf}` });
  if (integer) {
    const inside = Number.isFinite(min) && min > Number.MIN_SAFE_INTEGER ? min : 0;
    found.push({ value: inside + 0.5, note: 'not a whole number' });
  }
  if (channel === 'text') found.push({ value: 'abc', note: 'not a number' });
  return found;
}

function stringBoundaries(values: Values, schema: object, own: JsonObject): Boundary[] {
  const { minLength, maxLength, pattern } = stringRules(own);
  const found: Boundary[] = [];
  const format = typeof own.format === 'string' ? formatted(own.format) : undefined;
  if (format) {
    const [sample] = fc.sample(format, { seed: 1, numRuns: 1 });
    found.push({ value: sample, note: `a value of the format ${own.format}` });
    found.push({ value: NOT_OF_ANY_FORMAT[0], note: `not of the format ${own.format}` });
  }
  // A string of `length` characters the schema's other rules accept, when one can be made of one character repeated.
  const first = values.firstValid(schema);
  const fillers = [...FILLERS, ...(typeof first === 'string' ? [...first] : [])];
  const ofLength = (length: number) =>
    fillers.map((filler) => filler.repeat(length)).find((text) => (pattern?.test(text) ?? true) || length === 0);
  const lengths: Array<[number, string]> = [];
  if (typeof own.minLength === 'number') {
    lengths.push([minLength, `at the minLength ${minLength}`]);
    if (minLength > 0) lengths.push([minLength - 1, `one shorter than the minLength ${minLength}`]);
  } else lengths.push([0, 'empty']);
  if (typeof own.maxLength === 'number')
    lengths.push(
      [maxLength, `at the maxLength ${maxLength}`],
      [maxLength + 1, `one longer than the maxLength ${maxLength}`],
    );
  if (!format)
    for (const [length, note] of lengths) {
      const text = ofLength(length);
      if (text !== undefined && codePoints(text) === length) found.push({ value: text, note });
    }
  if (pattern && typeof first === 'string') {
    found.push({ value: first, note: `matching its pattern ${excerpt(pattern.source)}` });
    const misses = [
      ` ${first}`,
      `${first}\u0000`,
      first.slice(1),
      `${PATTERN_BREAKERS[11]}${first.slice(1)}`,
      ...PATTERN_BREAKERS.slice(0, 6),
    ];
    for (const miss of new Set(misses))
      if (!pattern.test(miss))
        found.push({ value: miss, note: `a near miss of its pattern ${excerpt(pattern.source)}` });
  }
  return found;
}

/** A pattern as a note quotes it: its start, when it is long. */
const excerpt = (source: string) => (source.length > 40 ? `${source.slice(0, 40)}…` : source);

function arrayBoundaries(values: Values, own: JsonObject): Boundary[] {
  const item = own.items === undefined ? 'item' : values.firstValid(own.items as object);
  const found: Boundary[] = [];
  const minItems = typeof own.minItems === 'number' ? own.minItems : 0;
  found.push({ value: Array(minItems).fill(item), note: minItems === 0 ? 'empty' : `at the minItems ${minItems}` });
  if (minItems > 0)
    found.push({ value: Array(minItems - 1).fill(item), note: `one fewer than the minItems ${minItems}` });
  if (typeof own.maxItems === 'number') {
    found.push({ value: Array(own.maxItems).fill(item), note: `at the maxItems ${own.maxItems}` });
    found.push({ value: Array(own.maxItems + 1).fill(item), note: `one more than the maxItems ${own.maxItems}` });
  }
  if (own.items !== undefined)
    for (const { value, note } of boundaries(values, own.items as object, 'json'))
      found.push({ value: [value], note: `an item ${note}` });
  return found;
}
