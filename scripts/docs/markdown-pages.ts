// The docs agents read, for one edition (the draft or a release): a Markdown page per operation and
// per webhook, `llms.txt` linking them in the llmstxt.org format (title, summary, sections of links),
// and `llms-full.txt` holding every page in one file. Written from the same copy of the contract as
// the edition's HTML page (presentation.ts), so the two say the same.

import {
  type JsonObject,
  type OpenApiDocument,
  operationObjects,
  resolveRef,
  type ServerObject,
} from '../../contract/document.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { webhookEvents } from '../../contract/webhooks.ts';
import { SAMPLE_LANGUAGES } from './code-samples.ts';
import { code, plainText, schemaName, schemaProse, schemaSummary, sentence } from './schema-prose.ts';

export const LLMS_TXT = 'llms.txt';
export const LLMS_FULL_TXT = 'llms-full.txt';

export interface MarkdownEdition {
  /** What the pages call the edition: `1.2.0 (draft)`, `1.0.0`. */
  label: string;
  /** The contract's files beside the pages, relative to them: `openapi.json`. */
  downloads: string[];
  /** The changelog page, relative to the edition's folder. */
  changelog: string;
}

/** A file of the edition's folder: its path there and its text. */
export interface MarkdownFile {
  path: string;
  content: string;
}

interface Page {
  path: string;
  title: string;
  /** What `llms.txt` says after the link. */
  note: string;
  /** The tag the page is listed under; webhooks have a section of their own. */
  section: string;
  markdown: string;
}

const WEBHOOKS_SECTION = 'Webhooks';
const UNTAGGED_SECTION = 'Operations';

/** `llms.txt`, `llms-full.txt` and every page, for the edition whose page shows `document`. */
export function markdownFiles(document: OpenApiDocument, edition: MarkdownEdition): MarkdownFile[] {
  const pages = [...operationPages(document), ...webhookPages(document)];
  const { info } = document;
  const summary = info.summary ?? firstParagraph(info.description);
  const head = [`# ${info.title}`, '', `> ${summary}`, ''];
  const sections = sectionsOf(document, pages).map(([section, listed]) => {
    const description = (document as { tags?: Array<{ name: string; description?: string }> }).tags?.find(
      (tag) => tag.name === section,
    )?.description;
    return [
      `## ${section}`,
      '',
      ...(description ? [plainText(description), ''] : []),
      ...listed.map((page) => `- [${page.title}](${page.path}): ${page.note}`),
      '',
    ].join('\n');
  });
  const llms = [
    ...head,
    firstParagraph(info.description),
    '',
    `Version ${edition.label}. Base URL: ${code(firstServer(document.servers) ?? '/')}. One page per operation and webhook below, with its parameters, body, answers and error codes; [${LLMS_FULL_TXT}](${LLMS_FULL_TXT}) has them all in one file.`,
    '',
    ...sections,
    '## Optional',
    '',
    ...edition.downloads.map((file) => `- [${file}](${file}): the contract, OpenAPI 3.1`),
    `- [Changelog](${edition.changelog}): what each release changed`,
    '',
  ].join('\n');
  const full = [...head, plainText(info.description ?? ''), '', ...pages.map((page) => page.markdown)].join('\n');
  return [
    { path: LLMS_TXT, content: llms },
    { path: LLMS_FULL_TXT, content: full },
    ...pages.map((page) => ({ path: page.path, content: page.markdown })),
  ];
}

/** The pages by section: the tags in the document's order, untagged operations, then the webhooks. */
function sectionsOf(document: OpenApiDocument, pages: Page[]): Array<[string, Page[]]> {
  const tags = ((document as { tags?: Array<{ name: string }> }).tags ?? []).map((tag) => tag.name);
  const order = [...tags, UNTAGGED_SECTION, ...new Set(pages.map((page) => page.section))];
  return [...new Set(order)].flatMap((section): Array<[string, Page[]]> => {
    const listed = pages.filter((page) => page.section === section);
    return listed.length > 0 ? [[section, listed]] : [];
  });
}

function operationPages(document: OpenApiDocument): Page[] {
  return operationObjects(document).map(({ path, method, pathParameters, pathServers, definition }) => {
    const id = String(definition.operationId ?? `${method} ${path}`);
    const title = String(definition.summary ?? id);
    const baseUrl = firstServer(pathServers ?? document.servers);
    const tag = (definition.tags as string[] | undefined)?.[0] ?? UNTAGGED_SECTION;
    const where = `${code(`${method} ${path}`)}${baseUrl ? ` on ${code(baseUrl)}` : ''}, operationId ${code(id)}`;
    const markdown = page(document, { title, where, parameters: pathParameters, definition });
    return {
      path: `operations/${id}.md`,
      title,
      note: noteOf(`${method} ${path}`, definition),
      section: tag,
      markdown,
    };
  });
}

function webhookPages(document: OpenApiDocument): Page[] {
  return webhookEvents(document).map(({ name, type, definition }) => {
    const title = String(definition.summary ?? type);
    const where = `${code('POST')} to each webhook endpoint subscribed to ${code(type)}, webhook ${code(name)}`;
    const markdown = page(document, { title, where, parameters: [], definition });
    return {
      path: `webhooks/${name}.md`,
      title,
      note: noteOf(`event ${type}`, definition),
      section: WEBHOOKS_SECTION,
      markdown,
    };
  });
}

/** What `llms.txt` says of a page after its link: what it is, and its stability and deprecation. */
function noteOf(what: string, definition: JsonObject): string {
  const marks = [
    ...(typeof definition['x-stability'] === 'string' ? [definition['x-stability']] : []),
    ...(definition.deprecated === true ? [`deprecated, removed on ${definition['x-sunset']}`] : []),
  ];
  return `${code(what)}${marks.length > 0 ? ` (${marks.join('; ')})` : ''}`;
}

interface PageParts {
  title: string;
  /** Where the request goes, and under which name the contract has it. */
  where: string;
  /** The path item's parameters, which come before the operation's own. */
  parameters: unknown[];
  definition: JsonObject;
}

function page(document: OpenApiDocument, { title, where, parameters: pathParameters, definition }: PageParts): string {
  const lines = [`# ${title}`, '', `${where}. Stability: ${definition['x-stability'] ?? 'stable'}.`, ''];
  if (definition.deprecated === true) {
    const successor = definition['x-successor'];
    lines.push(
      `**Deprecated:** removed on ${definition['x-sunset']}${typeof successor === 'string' ? `; use ${code(successor)} instead` : ''}.`,
      '',
    );
  }
  if (typeof definition.description === 'string') lines.push(plainText(definition.description), '');

  lines.push('## Authentication', '', ...authentication(document, definition), '');

  const parameters = [...pathParameters, ...((definition.parameters as unknown[] | undefined) ?? [])].map((node) =>
    resolveRef<JsonObject>(document, node),
  );
  if (parameters.length > 0) {
    lines.push(
      '## Parameters',
      '',
      '| Name | In | Required | Schema | Description |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const parameter of parameters)
      lines.push(
        `| ${code(parameter.name)} | ${parameter.in} | ${parameter.required === true ? 'yes' : 'no'} | ${cell(schemaSummary(document, parameter.schema))} | ${cell(sentence(parameter.description))} |`,
      );
    lines.push('');
  }

  /** Schemas this page has put in words already: a later body of one refers back. */
  const shown = new Set<string>();
  const body = (media: JsonObject): string[] => {
    const name = schemaName(media.schema);
    if (name !== undefined && shown.has(name)) return [`Body: ${code(name)}, as above.`];
    if (name !== undefined) shown.add(name);
    return [`Body: ${schemaProse(document, media.schema)}`];
  };

  if (definition.requestBody !== undefined) {
    const requestBody = resolveRef<JsonObject>(document, definition.requestBody);
    const content = Object.entries((requestBody.content ?? {}) as Record<string, JsonObject>);
    lines.push('## Request body', '');
    lines.push(
      `${content.map(([type]) => code(type)).join(' or ')}, ${requestBody.required === true ? 'required' : 'optional'}.${sentence(requestBody.description)}`,
      '',
    );
    for (const [, media] of content) lines.push(...body(media), '', ...example(document, media));
  }

  const responses = Object.entries((definition.responses ?? {}) as Record<string, unknown>).map(
    ([status, node]) => [status, resolveRef<JsonObject>(document, node)] as const,
  );
  const catalogue = errorCodes(document);
  const answered = new Set<string>();
  lines.push('## Responses', '');
  for (const [status, response] of responses) {
    lines.push(`### ${status}`, '', plainText(String(response.description ?? '')), '');
    const headers = Object.keys((response.headers ?? {}) as object);
    if (headers.length > 0) lines.push(`Headers: ${headers.map(code).join(', ')}.`, '');
    const media = ((response.content ?? {}) as Record<string, JsonObject>)['application/json'];
    if (media === undefined) continue;
    const codes = errorCodesOf(document, media, status, catalogue);
    for (const found of codes) answered.add(found);
    if (codes.length > 0) lines.push(`Error codes: ${codes.map(code).join(', ')}.`, '');
    lines.push(...body(media), '', ...example(document, media));
  }

  const errors = catalogue.filter((entry) => answered.has(entry.code));
  if (errors.length > 0) {
    lines.push('## Error codes', '', '| Code | Status | Meaning |', '| --- | --- | --- |');
    for (const entry of errors) lines.push(`| ${code(entry.code)} | ${entry.status} | ${cell(entry.meaning)} |`);
    lines.push('');
  }

  const headers = responseHeaders(document, responses);
  if (headers.length > 0) {
    lines.push('## Response headers', '', '| Header | Answers | Schema | Description |', '| --- | --- | --- | --- |');
    for (const { name, statuses, header } of headers)
      lines.push(
        `| ${code(name)} | ${statuses.join(', ')} | ${cell(schemaSummary(document, header.schema))} | ${cell(sentence(header.description))} |`,
      );
    lines.push('');
  }

  const curl = ((definition['x-codeSamples'] as Array<{ label: string; source: string }> | undefined) ?? []).find(
    (sample) => sample.label === SAMPLE_LANGUAGES[0].label,
  );
  if (curl !== undefined) lines.push('## Example request', '', '```sh', curl.source, '```', '');
  return lines.join('\n');
}

function authentication(document: OpenApiDocument, definition: JsonObject): string[] {
  const security = (definition.security ?? (document as JsonObject).security ?? []) as Array<Record<string, unknown>>;
  const schemes = (document.components?.securitySchemes ?? {}) as Record<string, JsonObject>;
  const named = security.flatMap((requirement) => Object.keys(requirement));
  if (named.length === 0) return ['None: this operation is served without a key and counts against no rate limit.'];
  return named.map(
    (name) => `- ${code(name)}:${sentence(resolveRef<JsonObject>(document, schemes[name]).description)}`,
  );
}

/** The codes an Error answer may carry: its examples', else every code the contract gives its status. */
function errorCodesOf(
  document: object,
  media: JsonObject,
  status: string,
  catalogue: ReturnType<typeof errorCodes>,
): string[] {
  if (!/^[45]/.test(status)) return [];
  const examples = Object.values((media.examples ?? {}) as Record<string, unknown>).map(
    (node) => resolveRef<{ value?: { code?: unknown } }>(document, node).value?.code,
  );
  const named = examples.filter((found): found is string => typeof found === 'string');
  if (named.length > 0) return [...new Set(named)];
  return catalogue.filter((entry) => String(entry.status) === status).map((entry) => entry.code);
}

function responseHeaders(
  document: object,
  responses: ReadonlyArray<readonly [string, JsonObject]>,
): Array<{ name: string; statuses: string[]; header: JsonObject }> {
  const found = new Map<string, { name: string; statuses: string[]; header: JsonObject }>();
  for (const [status, response] of responses) {
    for (const [name, node] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
      const entry = found.get(name) ?? { name, statuses: [], header: resolveRef<JsonObject>(document, node) };
      entry.statuses.push(status);
      found.set(name, entry);
    }
  }
  return [...found.values()];
}

/** The first named example of the JSON content, or its `example`, as a fenced block. */
function example(document: object, media: JsonObject): string[] {
  const [name, node] = Object.entries((media.examples ?? {}) as Record<string, unknown>)[0] ?? [];
  const value = node === undefined ? media.example : resolveRef<{ value?: unknown }>(document, node).value;
  if (value === undefined) return [];
  return [`Example${name ? ` (${code(name)})` : ''}:`, '', '```json', JSON.stringify(value, null, 2), '```', ''];
}

function firstServer(servers: ServerObject[] | undefined): string | undefined {
  return servers?.[0]?.url;
}

function firstParagraph(text: string | undefined): string {
  return (
    plainText(text ?? '')
      .split(/\n\s*\n/)[0]
      ?.replace(/\s*\n\s*/g, ' ') ?? ''
  );
}

/** Text as one cell of a Markdown table: one line, its pipes escaped. */
function cell(text: string): string {
  return text.trim().replaceAll('|', '\\|');
}
