// The page's own copy of a contract, adjusted for how Redoc shows it; the contract and the
// download copies stay as they are.
//  - A server whose whole URL is a variable (`{base_url}`) would show as `{base_url}`: the page
//    shows each variable at its default, the address a reader can use.
//  - Redoc shows a server's description as plain text, so Markdown code marks would show as
//    literal backticks: the page drops them.
//  - A tag with no operations (`store`, not designed in 1.0.0) would be an empty entry in the
//    navigation: the page leaves it out.
//  - Redoc does not read `x-stability`: an experimental or beta operation gets the `x-badges`
//    Redoc shows beside its title and its entry in the navigation.
//  - Every operation carries its code samples (`curl`, `@animal-store/client`) in `x-codeSamples`,
//    written from the contract (code-samples.ts).
//  - A status schema with `x-transitions` shows them as a state diagram (an SVG image) under its
//    description (state-diagram.ts).
//  - Redoc's search index joins the lines of a description with nothing between them ("when
//    omitted" read "whenomitted"): the page's descriptions keep each paragraph on one line, which
//    Markdown renders the same.

import type { OpenApiDocument } from '../../contract/document.ts';
import { type JsonObject, operationObjects, type ServerObject } from '../../contract/document.ts';
import { codeSamples, documentedItems } from './code-samples.ts';
import { withOperationIds } from './operation-ids.ts';
import { stateDiagramImage } from './state-diagram.ts';

/** The badge of each stability marker, in one of Redoc's named colours. */
const STABILITY_BADGES: Readonly<Record<string, { name: string; color: string }>> = {
  experimental: { name: 'Experimental', color: 'orange' },
  beta: { name: 'Beta', color: 'blue' },
};

export function forThePage<T extends object>(document: T): T {
  const copy = withOperationIds(document) as T & { servers?: ServerObject[]; tags?: Array<{ name: string }> };
  for (const { definition } of operationObjects(copy)) {
    const badge = STABILITY_BADGES[String(definition['x-stability'])];
    if (badge === undefined) continue;
    const badges = Array.isArray(definition['x-badges']) ? definition['x-badges'] : [];
    definition['x-badges'] = [...badges, badge];
  }
  if (copy.servers) copy.servers = copy.servers.map(readableServer);
  for (const pathItem of Object.values((copy as { paths?: Record<string, JsonObject> }).paths ?? {})) {
    if (Array.isArray(pathItem.servers)) pathItem.servers = (pathItem.servers as ServerObject[]).map(readableServer);
  }
  const items = documentedItems(copy as unknown as OpenApiDocument);
  for (const operation of operationObjects(copy)) {
    operation.definition['x-codeSamples'] = codeSamples(copy, operation, items);
  }
  const schemas = ((copy as { components?: { schemas?: Record<string, JsonObject> } }).components?.schemas ??
    {}) as Record<string, JsonObject>;
  for (const [name, schema] of Object.entries(schemas)) {
    const transitions = schema['x-transitions'] as Record<string, string[]> | undefined;
    if (transitions === undefined || !Array.isArray(schema.enum)) continue;
    const diagram = stateDiagramImage(name, schema.enum.map(String), transitions);
    schema.description = `${typeof schema.description === 'string' ? `${schema.description.trimEnd()}\n\n` : ''}${diagram}`;
  }
  const used = new Set(
    operationObjects(copy).flatMap(({ definition }) => (definition.tags as string[] | undefined) ?? []),
  );
  if (copy.tags) copy.tags = copy.tags.filter((tag) => used.has(tag.name));
  joinDescriptionLines(copy);
  return copy;
}

function joinDescriptionLines(node: unknown): void {
  if (Array.isArray(node)) for (const item of node) joinDescriptionLines(item);
  else if (typeof node === 'object' && node !== null) {
    const object = node as JsonObject;
    for (const [key, value] of Object.entries(object)) {
      if (key === 'description' && typeof value === 'string') object[key] = withoutSoftBreaks(value);
      else joinDescriptionLines(value);
    }
  }
}

/** A line that starts a Markdown block of its own (a list item, heading, quote, table row, fence, rule, HTML). */
const STARTS_BLOCK = /^\s*(?:[-*+]\s|\d+[.)]\s|#|>|\||```|~~~|<|(?:=+|-+|\*+)\s*$)/;
/** A line after which the next one never continues a paragraph: a heading, table row, fence, or hard break. */
const ENDS_BLOCK = /^\s*(?:#|\||```|~~~|<)|\s{2}$|\\$/;

/** The Markdown with each soft line break (a line that continues the paragraph before it) made a space. */
function withoutSoftBreaks(markdown: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    const previous = lines.at(-1);
    const fence = /^\s*(?:```|~~~)/.test(line);
    const continues =
      !fenced &&
      !fence &&
      previous !== undefined &&
      previous.trim() !== '' &&
      line.trim() !== '' &&
      !STARTS_BLOCK.test(line) &&
      !ENDS_BLOCK.test(previous);
    if (continues) lines[lines.length - 1] = `${previous} ${line.trim()}`;
    else lines.push(line);
    if (fence) fenced = !fenced;
  }
  return lines.join('\n');
}

function readableServer(server: ServerObject & { description?: string }): ServerObject {
  const { variables, ...rest } = server;
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (placeholder, name: string) => variables?.[name]?.default ?? placeholder,
  );
  const description = server.description?.replace(/`([^`]*)`/g, '$1');
  return { ...rest, url, ...(description !== undefined && { description }) };
}
