// The docs agents read, as `npm run docs` writes them for the draft and each release: `llms.txt` in
// the llmstxt.org format whose every link resolves to a file of the build, a Markdown page per
// operation and per webhook of that edition's contract holding every parameter and answer it
// declares, and `llms-full.txt` holding every page. Then, on a small document of the test's own,
// what a page says of a schema, an Error answer, a deprecation and a webhook.
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Contract } from '../../../contract/contract.ts';
import type { OpenApiDocument } from '../../../contract/document.ts';
import { webhookEvents } from '../../../contract/webhooks.ts';
import { LLMS_FULL_TXT, LLMS_TXT, type MarkdownFile, markdownFiles } from '../../../scripts/docs/markdown-pages.ts';
import { docsLocations } from '../../../scripts/docs/status.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { listReleases } from '../../../scripts/release/release-files.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { defined } from '../../support/defined.ts';

const locations = contractLocations(REPOSITORY_ROOT);
const docs = docsLocations(locations);

/** The draft and every release: the folder of its docs and the contract they were written from. */
const editions = [
  { name: 'draft', dir: docs.dir, contract: path.join(locations.outDir, 'openapi.json') },
  ...(await listReleases(locations)).map((release) => ({
    name: release.name,
    dir: path.join(docs.dir, release.name),
    contract: release.file,
  })),
];

/** The links of a Markdown text: `[title](target)`. */
const linksOf = (markdown: string) => [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string);

describe.each(editions)('the docs for agents of $name', ({ dir, contract: file }) => {
  const read = (relative: string) => readFile(path.join(dir, relative), 'utf8');

  it('has an llms.txt in the llmstxt.org format: a title, a summary, then sections of links', async () => {
    const document = JSON.parse(await readFile(file, 'utf8')) as OpenApiDocument;
    const [title, blank, summary, ...rest] = (await read(LLMS_TXT)).split('\n');
    expect([title, blank]).toEqual([`# ${document.info.title}`, '']);
    expect(summary).toMatch(/^> \S/);
    const body = rest.join('\n');
    expect(body).not.toMatch(/^# /m);
    for (const section of body.split(/^## /m).slice(1)) {
      const items = section.split('\n').filter((line) => line.startsWith('- '));
      expect(items.length, section).toBeGreaterThan(0);
      for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\([^)\s]+\)(: .+)?$/);
    }
  });

  it('links only files of the build, from llms.txt and from the HTML page beside it', async () => {
    const links = [...linksOf(await read(LLMS_TXT))];
    const page = await read('index.html');
    expect(page).toContain(`<a href="${LLMS_TXT}"`);
    for (const link of links) {
      const target = path.resolve(dir, link);
      expect(path.relative(docs.dir, target), link).not.toMatch(/^\.\./);
      await expect(access(target), link).resolves.toBeUndefined();
    }
  });

  it('has a page per operation and per webhook of its contract, each linked from llms.txt', async () => {
    const document = JSON.parse(await readFile(file, 'utf8')) as OpenApiDocument;
    const links = new Set(linksOf(await read(LLMS_TXT)));
    const expected = [
      ...new Contract(document).operations.map((operation) => `operations/${operation.operationId}.md`),
      ...webhookEvents(document).map((event) => `webhooks/${event.name}.md`),
    ];
    expect(expected.length).toBeGreaterThan(0);
    for (const page of expected) expect(links, page).toContain(page);
  });

  it('holds on each operation’s page every parameter and answer the contract declares for it', async () => {
    const document = JSON.parse(await readFile(file, 'utf8')) as OpenApiDocument;
    for (const operation of new Contract(document).operations) {
      const markdown = await read(`operations/${operation.operationId}.md`);
      expect(markdown, operation.operationId).toContain(`\`${operation.method} ${operation.path}\``);
      for (const parameter of operation.parameters)
        expect(markdown, `${operation.operationId} ${parameter.name}`).toContain(
          `| \`${parameter.name}\` | ${parameter.in} | ${parameter.required ? 'yes' : 'no'} |`,
        );
      for (const status of Object.keys(operation.responses))
        expect(markdown, `${operation.operationId} ${status}`).toMatch(new RegExp(`^### ${status}$`, 'm'));
      for (const { mediaType } of operation.bodies ?? [])
        expect(markdown, `${operation.operationId} body`).toContain(`\`${mediaType}\``);
    }
  });

  it('holds every page in llms-full.txt', async () => {
    const full = await read(LLMS_FULL_TXT);
    for (const link of linksOf(await read(LLMS_TXT)).filter((link) => link.endsWith('.md')))
      expect(full, link).toContain(await read(link));
  });
});

/** A contract of the test's own: one deprecated list, one public probe, one webhook. */
const SMALL: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Small API', version: '2.0.0', summary: 'A small API.' },
  servers: [{ url: 'https://small.example/v2' }],
  security: [{ key: [] }],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        summary: 'List things',
        deprecated: true,
        'x-sunset': '2031-01-01',
        'x-successor': 'searchThings',
        parameters: [{ name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 9 } }],
        responses: {
          '200': {
            description: 'The things.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Things' } } },
          },
          '404': {
            description: 'None.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
    '/ping': {
      get: { operationId: 'ping', summary: 'Ping', security: [], responses: { '204': { description: 'Alive.' } } },
    },
  },
  webhooks: {
    thingMade: {
      post: {
        summary: 'A thing was made',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { type: { const: 'thing.made' }, data: { $ref: '#/components/schemas/Thing' } },
              },
            },
          },
        },
        responses: { '200': { description: 'Received.' } },
      },
    },
  },
  components: {
    securitySchemes: { key: { type: 'http', scheme: 'bearer', description: 'Send the key as a bearer token.' } },
    schemas: {
      Thing: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 5, description: 'Its name.' },
          tags: { type: 'array', maxItems: 1, items: { type: 'object', properties: { label: { type: 'string' } } } },
        },
      },
      Things: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
      Error: {
        type: 'object',
        properties: {
          code: {
            type: 'string',
            enum: ['gone_away', 'no_thing'],
            'x-error-codes': {
              gone_away: { status: 410, meaning: 'Gone.' },
              no_thing: { status: 404, meaning: 'No such thing.' },
            },
          },
        },
      },
    },
  },
};

describe('markdownFiles', () => {
  const files = markdownFiles(SMALL, { label: '2.0.0', downloads: ['openapi.json'], changelog: 'changelog.html' });
  const page = (name: string): string =>
    defined(
      files.find((found: MarkdownFile) => found.path === name),
      name,
    ).content;

  it('writes a field in words: its type, whether it is required, its constraints and description, nested fields below it', () => {
    const markdown = page('operations/listThings.md');
    expect(markdown).toContain('Body: array of object, `Thing`, `Things`.');
    expect(markdown).toContain('- `name` (string, 1 to 5 characters, required): Its name.');
    expect(markdown).toContain('- `tags` (array of object, at most 1 item):');
    expect(markdown).toContain('  - `label` (string):');
    expect(markdown).toContain('| `size` | query | no | integer, 1 to 9 |');
  });

  it('names a deprecated operation’s sunset and successor, on its page and in llms.txt', () => {
    expect(page('operations/listThings.md')).toContain(
      '**Deprecated:** removed on 2031-01-01; use `searchThings` instead.',
    );
    expect(page(LLMS_TXT)).toContain(
      '- [List things](operations/listThings.md): `GET /things` (deprecated, removed on 2031-01-01)',
    );
  });

  it('lists the codes an Error answer without examples may carry: those the contract gives its status', () => {
    const markdown = page('operations/listThings.md');
    expect(markdown).toContain('Error codes: `no_thing`.');
    expect(markdown).toContain('| `no_thing` | 404 | No such thing. |');
    expect(markdown).not.toContain('| `gone_away` |');
  });

  it('says which operations need the key, in the words of its security scheme', () => {
    expect(page('operations/listThings.md')).toContain('- `key`: Send the key as a bearer token.');
    expect(page('operations/ping.md')).toMatch(/## Authentication\n\nNone: /);
  });

  it('writes a webhook’s page with the event it carries, listed under Webhooks', () => {
    expect(page('webhooks/thingMade.md')).toContain('`POST` to each webhook endpoint subscribed to `thing.made`');
    expect(page(LLMS_TXT)).toMatch(/## Webhooks\n\n- \[A thing was made\]\(webhooks\/thingMade\.md\)/);
  });
});
