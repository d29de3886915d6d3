// Values judged by the contract module's own JSON Schema set-up, and the one valid value of a
// schema the fuzzer starts from: the same on every run, so the cases built on it are too.
import fc from 'fast-check';
import { type JsonObject, type OpenApiDocument, oncePer } from '../contract/document.ts';
import { schemaCompiler } from '../contract/schemas.ts';
import { type SchemaArbitraries, schemaArbitraries } from './schema-arbitraries.ts';

export interface Values {
  arbitraries: SchemaArbitraries;
  /** Whether the schema (a node of the document) accepts the value. */
  accepts(schema: object, value: unknown): boolean;
  /** A value the schema accepts: its first example, its default, or the first of its generated values that fits. */
  firstValid(schema: object): unknown;
  /** Parameter text as its schema's type reads it: `42` as 42, `true` as true; anything else stays text. */
  fromText(schema: JsonObject, text: string): unknown;
}

/** The seed of the one valid value's generation: fixed, so the value is the same whatever the run's seed. */
const FIRST_VALID_SEED = 1;

/** Each document's values, made once: compiling its schemas is the costly part. */
export const values: (document: OpenApiDocument) => Values = oncePer(valuesOf);

function valuesOf(document: OpenApiDocument): Values {
  const compiler = schemaCompiler(document);
  const arbitraries = schemaArbitraries(document);
  const compiled = new WeakMap<object, (value: unknown) => boolean>();
  const accepts = (schema: object, value: unknown): boolean => {
    let validate = compiled.get(schema);
    if (!validate) {
      const ajvValidate = compiler.compile({ $ref: compiler.ref(schema) });
      validate = (candidate) => ajvValidate(candidate);
      compiled.set(schema, validate);
    }
    return validate(value);
  };
  const firsts = new WeakMap<object, unknown>();
  const firstValid = (schema: object): unknown => {
    if (firsts.has(schema)) return firsts.get(schema);
    const own = arbitraries.keywords(schema);
    const candidates = [
      ...(Array.isArray(own.examples) ? own.examples : []),
      ...('example' in own ? [own.example] : []),
      ...('default' in own ? [own.default] : []),
      ...('const' in own ? [own.const] : []),
      ...(Array.isArray(own.enum) ? own.enum : []),
      ...plainGuesses(own),
    ];
    let found = candidates.find((candidate) => accepts(schema, candidate));
    if (found === undefined) {
      // An object's first value is made of its properties' first values, required ones only.
      if (own.type === 'object' && own.properties) found = firstObject(own);
      if (found === undefined || !accepts(schema, found))
        found = fc
          .sample(arbitraries.validValues(schema), { seed: FIRST_VALID_SEED, numRuns: 50 })
          .find((candidate) => accepts(schema, candidate));
    }
    firsts.set(schema, found);
    return found;
  };
  const firstObject = (schema: JsonObject): Record<string, unknown> => {
    const properties = schema.properties as Record<string, object>;
    const required = (schema.required as string[] | undefined) ?? [];
    return Object.fromEntries(
      required.filter((name) => properties[name]).map((name) => [name, firstValid(properties[name] as object)]),
    );
  };
  return {
    arbitraries,
    accepts,
    firstValid,
    fromText(schema, text) {
      const type = arbitraries.keywords(schema).type;
      if ((type === 'integer' || type === 'number') && text.trim() !== '' && !Number.isNaN(Number(text)))
        return Number(text);
      if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
      return text;
    },
  };
}

/** Values a person would try first, so that a finding's request reads plainly: `a`, `1`. */
function plainGuesses(schema: JsonObject): unknown[] {
  const least = (keyword: string, fallback: number) =>
    typeof schema[keyword] === 'number' ? (schema[keyword] as number) : fallback;
  if (schema.type === 'string' && schema.format === undefined) return ['a'.repeat(Math.max(1, least('minLength', 1)))];
  if (schema.type === 'integer' || schema.type === 'number') return [Math.max(1, least('minimum', 1))];
  return [];
}

/** A parameter value as the text it travels as. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(asText).join(',');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Header text HTTP carries as it is: no control character, and no white space at either end, which would be trimmed. */
export const sendableAsHeader = (text: string) => /^(?:[!-~\x80-\xff](?:[ -~\x80-\xff]*[!-~\x80-\xff])?)?$/.test(text);

/** Path parameter text that would change the path itself rather than fill a segment of it. */
export const reshapesPath = (text: string) => text === '' || text === '.' || text === '..';
