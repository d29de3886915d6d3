// A schema of the contract in words, as a Markdown list: what each field is, whether it is
// required, its constraints and its description, nested fields indented under theirs. For the
// Markdown pages agents read (markdown-pages.ts), where a reader has no renderer to unfold a schema.
import { type JsonObject, type JsonSchema, resolveRef } from '../../contract/document.ts';

/** Deeper than this, a field is named and not unfolded: no schema of a contract needs more, and it bounds a loop. */
const DEEPEST = 8;

export const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** The schema's name where it is a component (`Pet` for `#/components/schemas/Pet`). */
export function schemaName(node: unknown): string | undefined {
  const ref = (node as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

/** One line: what the value is (its type, or the schema it is) and its constraints, without its description. */
export function schemaSummary(document: object, node: unknown): string {
  const schema = resolveRef<JsonSchema>(document, node);
  const name = schemaName(node);
  return [typeOf(document, schema), ...(name ? [`\`${name}\``] : []), ...constraints(schema)].join(', ');
}

/**
 * The schema as Markdown, to follow a label (`Body: `): its summary and description, then a list of
 * its fields (an object's, or those of an array's items), each with its own summary and description
 * and its fields below it.
 */
export function schemaProse(document: object, node: unknown): string {
  const schema = resolveRef<JsonSchema>(document, node);
  const line = `${schemaSummary(document, node)}.${sentence(schema.description)}`;
  const fields = fieldLines(document, schema, '', 0);
  return fields.length > 0 ? `${line}\n\n${fields.join('\n')}` : line;
}

function fieldLines(document: object, schema: JsonSchema, indent: string, depth: number): string[] {
  const object = fieldsOf(document, schema);
  if (object === undefined || depth >= DEEPEST) return [];
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties as Record<string, unknown> | undefined) ?? {}).flatMap(([name, node]) => {
    const field = resolveRef<JsonSchema>(document, node);
    const description = (node as JsonObject).description ?? field.description;
    const line = `${indent}- \`${name}\` (${schemaSummary(document, node)}${required.has(name) ? ', required' : ''}):${sentence(description) || ' '}`;
    return [line.trimEnd(), ...fieldLines(document, field, `${indent}  `, depth + 1)];
  });
}

/** The object whose properties a value has: the schema itself, or an array's items. */
function fieldsOf(document: object, schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties !== undefined) return schema;
  if (schema.items !== undefined) return fieldsOf(document, resolveRef<JsonSchema>(document, schema.items));
  return undefined;
}

function typeOf(document: object, schema: JsonSchema): string {
  if (schema.const !== undefined) return `always ${code(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(', ')}`;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const choices = schema[keyword];
    if (Array.isArray(choices))
      return `${keyword === 'oneOf' ? 'exactly one of' : 'any of'}: ${choices.map((choice) => schemaSummary(document, choice)).join('; ')}`;
  }
  if (schema.type === 'array') {
    const items = schema.items === undefined ? 'values' : schemaSummary(document, schema.items);
    return `array of ${items}`;
  }
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any value');
  return typeof schema.format === 'string' ? `${type} (${schema.format})` : type;
}

function constraints(schema: JsonSchema): string[] {
  const found: string[] = [];
  const range = (low: unknown, high: unknown, unit = '') => {
    const of = (count: unknown) => (unit === '' ? '' : ` ${unit}${count === 1 ? '' : 's'}`);
    if (low !== undefined && high !== undefined) found.push(`${low} to ${high}${of(high)}`);
    else if (low !== undefined) found.push(`at least ${low}${of(low)}`);
    else if (high !== undefined) found.push(`at most ${high}${of(high)}`);
  };
  range(schema.minimum, schema.maximum);
  if (schema.exclusiveMinimum !== undefined) found.push(`more than ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) found.push(`less than ${schema.exclusiveMaximum}`);
  range(schema.minLength, schema.maxLength, 'character');
  range(schema.minItems, schema.maxItems, 'item');
  range(schema.minProperties, schema.maxProperties, 'field');
  if (schema.uniqueItems === true) found.push('each item once');
  if (typeof schema['x-pattern-message'] === 'string') found.push(schema['x-pattern-message']);
  else if (typeof schema.pattern === 'string') found.push(`matching ${code(schema.pattern)}`);
  if (schema.default !== undefined) found.push(`default ${code(schema.default)}`);
  if (schema.readOnly === true) found.push('set by the service');
  if (schema.additionalProperties === false && schema.properties !== undefined) found.push('no other fields');
  if (typeof schema['x-references'] === 'string') found.push(`names an item of ${code(schema['x-references'])}`);
  const transitions = schema['x-transitions'] as Record<string, string[]> | undefined;
  if (transitions !== undefined)
    found.push(
      `changes ${Object.entries(transitions)
        .map(([from, to]) => `${code(from)} → ${to.length > 0 ? to.map(code).join(' or ') : 'none (final)'}`)
        .join('; ')}`,
    );
  if (schema.deprecated === true) found.push('deprecated');
  return found;
}

/** A description as the end of a line: its paragraphs joined, a state diagram read by its words. */
export function sentence(description: unknown): string {
  if (typeof description !== 'string' || description.trim() === '') return '';
  return ` ${plainText(description).replace(/\s*\n\s*/g, ' ')}`;
}

/** Markdown as agents read it: an inlined image (a state diagram, a data: URL) is its `alt` text. */
export function plainText(markdown: string): string {
  return markdown.replace(/<img\b[^>]*\balt="([^"]*)"[^>]*>/g, (_, alt: string) => decodeAttribute(alt)).trim();
}

function decodeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}
