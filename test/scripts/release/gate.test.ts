// The breaking-change gate on edits of the released 1.0.0 contract, in memory: each edit with the
// class of its change, the gate's verdict and the exit status `npm run diff` gives it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../../contract/document.ts';
import { derivePetNamePattern } from '../../../scripts/patterns/pet-name.ts';
import type { ChangeClass } from '../../../scripts/release/changes.ts';
import { runGate, type Verdict } from '../../../scripts/release/gate.ts';
import { repoRoot } from '../../support/workspace.ts';

const released = JSON.parse(
  readFileSync(path.join(repoRoot, 'releases', '1.0.0', 'openapi.json'), 'utf8'),
) as OpenApiDocument;

// biome-ignore lint/suspicious/noExplicitAny: the edits reach into the bundle by the paths they know.
type Bundle = Record<string, any>;
const schemas = (document: Bundle) => document.components.schemas;
const parameters = (document: Bundle) => document.components.parameters;
const headers = (document: Bundle) => document.components.headers;
const operation = (document: Bundle, route: string, method: string) => document.paths[route][method];
const PET_OPERATIONS = [
  ['/pets', 'get'],
  ['/pets', 'post'],
  ['/pets/{petId}', 'get'],
] as const;

function removePetStatus(document: Bundle): void {
  delete schemas(document).Pet.properties.status;
  schemas(document).Pet.required = ['id', 'name', 'categoryId'];
}
function markPetOperations(stability: 'experimental' | 'beta') {
  return (document: Bundle) => {
    for (const [route, method] of PET_OPERATIONS) operation(document, route, method)['x-stability'] = stability;
  };
}
function moveToVersion(document: Bundle, version: string, basePath: string): void {
  document.info.version = version;
  document.servers = (document.servers as Bundle[]).map((server) => ({
    ...server,
    url: server.url.replace('/v1', basePath),
    ...(server.variables && {
      variables: Object.fromEntries(
        Object.entries(server.variables as Bundle).map(([name, variable]) => [
          name,
          { ...variable, default: variable.default.replace('/v1', basePath) },
        ]),
      ),
    }),
  }));
}

interface Row {
  edit: string;
  /** Applied to both sides first: what the released contract would have said. */
  inBase?: (document: Bundle) => void;
  change: (document: Bundle) => void;
  /** The change the row is about, by its words, with its class and the gate's verdict. */
  expected: { what: RegExp; class: ChangeClass; verdict: Verdict };
  exit: 0 | 1;
  now?: string;
}

const breaking = (what: RegExp): Row['expected'] => ({ what, class: 'breaking', verdict: 'fails' });
const nonBreaking = (what: RegExp): Row['expected'] => ({ what, class: 'non-breaking', verdict: 'ok' });
const documentation = (what: RegExp): Row['expected'] => ({ what, class: 'documentation', verdict: 'ok' });

const ROWS: Row[] = [
  // Breaking for a client built against 1.0.0: each fails the gate while the version stays 1.x.
  {
    edit: 'an operation removed',
    change: (d) => delete d.paths['/pets'].post,
    expected: breaking(/^removed POST \/pets$/),
    exit: 1,
  },
  {
    edit: 'a path removed',
    change: (d) => delete d.paths['/readyz'],
    expected: breaking(/^removed GET \/readyz$/),
    exit: 1,
  },
  {
    edit: 'a parameter value removed (request enum narrowed)',
    change: (d) => schemas(d).PetStatus.enum.pop(),
    expected: breaking(/^removed "sold" from the values of PetStatus$/),
    exit: 1,
  },
  {
    edit: 'a response status removed',
    change: (d) => delete operation(d, '/pets/{petId}', 'get').responses['404'],
    expected: breaking(/^removed GET \/pets\/\{petId\} response 404$/),
    exit: 1,
  },
  { edit: 'a response field removed', change: removePetStatus, expected: breaking(/^removed Pet\.status$/), exit: 1 },
  {
    edit: 'a response field made optional',
    change: (d) => schemas(d).Pet.required.pop(),
    expected: breaking(/^Pet\.status made optional$/),
    exit: 1,
  },
  {
    edit: 'a response field made nullable',
    change: (d) => (schemas(d).PetName.type = ['string', 'null']),
    expected: breaking(/^changed PetName\.type from "string" to \["string","null"\]$/),
    exit: 1,
  },
  {
    edit: 'a type changed',
    change: (d) => (schemas(d).CategoryId.type = 'string'),
    expected: breaking(/^changed CategoryId\.type from "integer" to "string"$/),
    exit: 1,
  },
  {
    edit: 'a request field added as required',
    change: (d) => {
      schemas(d).NewPet.properties.nickname = { type: 'string' };
      schemas(d).NewPet.required.push('nickname');
    },
    expected: breaking(/^NewPet\.nickname made required$/),
    exit: 1,
  },
  {
    edit: 'a request field made required',
    change: (d) => schemas(d).NewPet.required.push('status'),
    expected: breaking(/^NewPet\.status made required$/),
    exit: 1,
  },
  {
    edit: 'a parameter added as required',
    change: (d) =>
      operation(d, '/pets', 'get').parameters.push({
        name: 'q',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    expected: breaking(/^added GET \/pets parameter 3$/),
    exit: 1,
  },
  {
    edit: 'a parameter made required',
    change: (d) => (parameters(d).Limit.required = true),
    expected: breaking(/^added Limit\.required$/),
    exit: 1,
  },
  {
    edit: 'an enum widened in a response',
    change: (d) => schemas(d).PetStatus.enum.push('adopted'),
    expected: breaking(/^added "adopted" to the values of PetStatus$/),
    exit: 1,
  },
  {
    edit: 'a maximum lowered',
    change: (d) => (parameters(d).Limit.schema.maximum = 50),
    expected: breaking(/^changed Limit\.maximum from 100 to 50$/),
    exit: 1,
  },
  {
    edit: 'a minimum raised',
    change: (d) => (parameters(d).Limit.schema.minimum = 5),
    expected: breaking(/^changed Limit\.minimum from 1 to 5$/),
    exit: 1,
  },
  {
    edit: 'a format added on input that the range of the integer does not fit',
    change: (d) => {
      parameters(d).Limit.schema.maximum = 2 ** 40;
      parameters(d).Limit.schema.format = 'int32';
    },
    expected: breaking(/^added Limit\.format$/),
    exit: 1,
  },
  {
    edit: 'a pattern added on input',
    change: (d) => (parameters(d).Cursor.schema.pattern = '^[A-Za-z0-9._-]+$'),
    expected: breaking(/^added Cursor\.pattern$/),
    exit: 1,
  },
  {
    edit: 'a pattern tightened on input',
    change: (d) => (schemas(d).PetName.pattern = '^[a-z]+$'),
    expected: breaking(/^changed PetName\.pattern from /),
    exit: 1,
  },
  {
    edit: 'a pattern written another way (a property by its long name), accepting the same strings',
    change: (d) =>
      (schemas(d).PetName.pattern = schemas(d).PetName.pattern.replaceAll('\\p{Cf}', '\\p{General_Category=Format}')),
    expected: nonBreaking(/^changed PetName\.pattern from /),
    exit: 0,
  },
  {
    edit: 'a pattern loosened on input: the name rule restated for every language, which takes more names',
    change: (d) => (schemas(d).PetName.pattern = derivePetNamePattern()),
    expected: nonBreaking(/^changed PetName\.pattern from /),
    exit: 0,
  },
  {
    edit: 'a security requirement added',
    change: (d) => (operation(d, '/healthz', 'get').security = [{ bearerAuth: [] }]),
    expected: breaking(/^added GET \/healthz\.security\[0\]$/),
    exit: 1,
  },
  {
    edit: 'a default changed',
    change: (d) => (parameters(d).Limit.schema.default = 10),
    expected: breaking(/^changed Limit\.default from 20 to 10$/),
    exit: 1,
  },
  ...['X-RateLimit-Limit', 'Link'].map(
    (header): Row => ({
      edit: `the ${header} header removed`,
      change: (d) => delete operation(d, '/pets', 'get').responses['200'].headers[header],
      expected: breaking(new RegExp(`^removed GET /pets response 200 header ${header}$`)),
      exit: 1,
    }),
  ),
  {
    edit: 'the Retry-After header removed',
    change: (d) => delete d.components.responses.TooManyRequests.headers['Retry-After'],
    expected: breaking(/^removed TooManyRequests header Retry-After$/),
    exit: 1,
  },
  {
    edit: 'the Location header removed',
    change: (d) => delete operation(d, '/pets', 'post').responses['201'].headers.Location,
    expected: breaking(/^removed POST \/pets response 201 header Location$/),
    exit: 1,
  },
  ...['Deprecation', 'Sunset'].map(
    (header): Row => ({
      edit: `the ${header} header removed`,
      change: (d) => delete operation(d, '/pets/{petId}', 'get').responses['200'].headers[header],
      expected: breaking(new RegExp(`^removed GET /pets/\\{petId\\} response 200 header ${header}$`)),
      exit: 1,
    }),
  ),
  {
    edit: 'a response header made optional (api-smart-diff calls it non-breaking)',
    change: (d) => (headers(d)['X-RateLimit-Reset'].required = false),
    expected: breaking(/^changed X-RateLimit-Reset\.required from true to false$/),
    exit: 1,
  },
  {
    edit: 'a field removed from a closed request body (api-smart-diff calls it non-breaking)',
    change: (d) => delete schemas(d).NewPet.properties.status,
    expected: breaking(/^removed NewPet\.status$/),
    exit: 1,
  },
  {
    edit: 'the base path moved to /v2 within 1.x',
    change: (d) => moveToVersion(d, '1.0.0', '/v2'),
    expected: breaking(/^changed the base path from \/v1 to \/v2$/),
    exit: 1,
  },

  // Non-breaking: the version may stay, and a release is a minor one.
  {
    edit: 'a new operation',
    change: (d) =>
      (d.paths['/pets/{petId}'].delete = { operationId: 'deletePet', responses: { '204': { description: 'Gone.' } } }),
    expected: nonBreaking(/^added DELETE \/pets\/\{petId\}$/),
    exit: 0,
  },
  {
    edit: 'an optional request field',
    change: (d) => (schemas(d).NewPet.properties.nickname = { type: 'string' }),
    expected: nonBreaking(/^added NewPet\.nickname$/),
    exit: 0,
  },
  {
    edit: 'a new response field',
    change: (d) => (schemas(d).Pet.properties.nickname = { type: 'string' }),
    expected: nonBreaking(/^added Pet\.nickname$/),
    exit: 0,
  },
  {
    edit: 'a maximum raised on input',
    change: (d) => (parameters(d).Limit.schema.maximum = 200),
    expected: nonBreaking(/^changed Limit\.maximum from 100 to 200$/),
    exit: 0,
  },
  {
    edit: 'a format added on input that the range of the integer fits',
    change: (d) => (parameters(d).Limit.schema.format = 'int32'),
    expected: nonBreaking(/^added Limit\.format$/),
    exit: 0,
  },
  {
    edit: 'a maximum added to a response header',
    change: (d) => (headers(d)['X-RateLimit-Remaining'].schema.maximum = 2 ** 53 - 1),
    expected: nonBreaking(/^added X-RateLimit-Remaining\.maximum$/),
    exit: 0,
  },
  {
    edit: 'a maxLength added to a response field',
    change: (d) => (schemas(d).Error.properties.message.maxLength = 4096),
    expected: nonBreaking(/^added Error\.message\.maxLength$/),
    exit: 0,
  },
  {
    edit: 'a minimum lowered on input',
    change: (d) => (parameters(d).Limit.schema.minimum = 0),
    expected: nonBreaking(/^changed Limit\.minimum from 1 to 0$/),
    exit: 0,
  },
  {
    edit: 'an optional parameter added',
    change: (d) =>
      operation(d, '/pets', 'get').parameters.push({
        name: 'q',
        in: 'query',
        required: false,
        schema: { type: 'string' },
      }),
    expected: nonBreaking(/^added GET \/pets parameter 3$/),
    exit: 0,
  },
  {
    edit: 'a response header added',
    change: (d) => (operation(d, '/pets', 'get').responses['200'].headers['X-Total'] = { schema: { type: 'integer' } }),
    expected: nonBreaking(/^added GET \/pets response 200 header X-Total$/),
    exit: 0,
  },
  {
    edit: 'an operation deprecated',
    change: (d) => {
      operation(d, '/pets', 'post').deprecated = true;
      operation(d, '/pets', 'post')['x-sunset'] = '2031-01-01';
    },
    expected: nonBreaking(/^added POST \/pets\.deprecated$/),
    exit: 0,
  },

  // Documentation only: a patch release.
  {
    edit: 'a description changed',
    change: (d) => (schemas(d).Pet.description = 'An animal of the store.'),
    expected: documentation(/^changed Pet\.description from /),
    exit: 0,
  },
  {
    edit: 'a summary changed',
    change: (d) => (operation(d, '/pets', 'get').summary = 'List the animals'),
    expected: documentation(/^changed GET \/pets\.summary from "List animals" to "List the animals"$/),
    exit: 0,
  },
  {
    edit: 'an example changed',
    change: (d) => (d.components.examples.PetFound.value.name = 'Max'),
    expected: documentation(/^changed PetFound\.value\.name from "Rex" to "Max"$/),
    exit: 0,
  },

  // This API's rules: stability markers, sunsets, major versions.
  {
    edit: 'a response field removed from experimental operations',
    inBase: markPetOperations('experimental'),
    change: removePetStatus,
    expected: { what: /^removed Pet\.status$/, class: 'breaking', verdict: 'allowed' },
    exit: 0,
  },
  {
    edit: 'a response field removed from beta operations',
    inBase: markPetOperations('beta'),
    change: removePetStatus,
    expected: { what: /^removed Pet\.status$/, class: 'breaking', verdict: 'warning' },
    exit: 0,
  },
  {
    edit: 'a response field removed from one experimental and two stable operations',
    inBase: (d) => (operation(d, '/pets', 'get')['x-stability'] = 'experimental'),
    change: removePetStatus,
    expected: breaking(/^removed Pet\.status$/),
    exit: 1,
  },
  {
    edit: 'a deprecated operation removed before its sunset',
    change: (d) => delete d.paths['/pets/{petId}'],
    expected: breaking(/^removed GET \/pets\/\{petId\}$/),
    exit: 1,
    now: '2030-12-04T23:59:59Z',
  },
  {
    edit: 'a deprecated operation removed from its sunset on',
    change: (d) => delete d.paths['/pets/{petId}'],
    expected: { what: /^removed GET \/pets\/\{petId\}$/, class: 'breaking', verdict: 'allowed' },
    exit: 0,
    now: '2030-12-05T00:00:00Z',
  },
  {
    edit: 'a stable break in a new major version under /v2',
    change: (d) => {
      removePetStatus(d);
      moveToVersion(d, '2.0.0', '/v2');
    },
    expected: { what: /^removed Pet\.status$/, class: 'breaking', verdict: 'allowed' },
    exit: 0,
  },
  {
    edit: 'a stable break in a new major version still under /v1',
    change: (d) => {
      removePetStatus(d);
      d.info.version = '2.0.0';
    },
    expected: breaking(/^removed Pet\.status$/),
    exit: 1,
  },
];

// The timeout: comparing two patterns on every code point takes seconds on a loaded machine.
describe('the breaking-change gate on edits of the 1.0.0 contract', () => {
  it('has at least 30 edits', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(ROWS)('$edit: $expected.class, exit $exit', ({ inBase, change, expected, exit, now }) => {
    const base = structuredClone(released) as Bundle;
    inBase?.(base);
    const working = structuredClone(base);
    change(working);
    const result = runGate(base as OpenApiDocument, working as OpenApiDocument, {
      now: new Date(now ?? '2026-11-21T00:00:00Z'),
    });
    const found = result.judgements.filter((judgement) => expected.what.test(judgement.what));
    expect(
      found.map(({ class: kind, verdict }) => ({ class: kind, verdict })),
      result.judgements.map((judgement) => `${judgement.class} ${judgement.what} ${judgement.verdict}`).join('\n'),
    ).toContainEqual({ class: expected.class, verdict: expected.verdict });
    expect(result.passed ? 0 : 1).toBe(exit);
  });

  it('finds no change between a contract and itself', () => {
    const result = runGate(released, structuredClone(released));
    expect(result).toEqual({ judgements: [], bump: 'none', passed: true });
  });

  it('knows tags by name: one added before the others, and another reworded, are two changes', () => {
    const working = structuredClone(released) as Bundle;
    const [first] = working.tags;
    first.description = `${first.description} Reworded.`;
    working.tags.unshift({ name: 'widgets', description: 'The widgets of the store.' });
    const result = runGate(released, working as OpenApiDocument);
    expect(result.judgements.map(({ class: kind, what, pointer }) => ({ class: kind, what, pointer }))).toEqual([
      { class: 'documentation', what: 'added tag widgets', pointer: '#/tags/0' },
      {
        class: 'documentation',
        what: expect.stringMatching(new RegExp(`^changed tag ${first.name}\\.description from "`)),
        pointer: '#/tags/1/description',
      },
    ]);
  });

  it('names the operations a change reaches and the bump it calls for', () => {
    const working = structuredClone(released) as Bundle;
    removePetStatus(working);
    const result = runGate(released, working as OpenApiDocument);
    const removal = result.judgements.find((judgement) => judgement.what === 'removed Pet.status');
    expect(removal?.pointer).toBe('#/components/schemas/Pet/properties/status');
    expect(removal?.operations.map((found) => found.name)).toEqual(['GET /pets', 'POST /pets', 'GET /pets/{petId}']);
    expect(removal?.reason).toBe('breaks clients of 1.x: needs version 2.0.0 and the base path /v2 in servers');
    expect(result.bump).toBe('major');
  });

  it.each([
    {
      changes: 'documentation only',
      change: (d: Bundle) => (schemas(d).Pet.description = 'An animal.'),
      bump: 'patch',
    },
    {
      changes: 'an addition',
      change: (d: Bundle) => (schemas(d).NewPet.properties.nickname = { type: 'string' }),
      bump: 'minor',
    },
    {
      changes: 'a break of experimental operations',
      inBase: markPetOperations('experimental'),
      change: removePetStatus,
      bump: 'minor',
    },
  ])('calls for a $bump version for $changes', ({ inBase, change, bump }) => {
    const base = structuredClone(released) as Bundle;
    inBase?.(base);
    const working = structuredClone(base);
    change(working);
    expect(runGate(base as OpenApiDocument, working as OpenApiDocument).bump).toBe(bump);
  });
});

describe('a webhook payload, which receivers read as clients read a response', () => {
  // The working contract's webhooks, made stable on both sides: what a release would promise.
  const withStableWebhooks = (() => {
    const document = JSON.parse(readFileSync(path.join(repoRoot, 'generated', 'openapi.json'), 'utf8')) as Bundle;
    for (const webhook of Object.values(document.webhooks as Bundle)) delete webhook.post['x-stability'];
    return document;
  })();
  const edited = (edit: (document: Bundle) => void) => {
    const working = structuredClone(withStableWebhooks);
    edit(working);
    return runGate(withStableWebhooks as OpenApiDocument, working as OpenApiDocument);
  };

  it('breaks receivers when a field is removed from it, naming the webhook', () => {
    const result = edited((document) => {
      delete schemas(document).PetCreatedEvent.properties.timestamp;
      schemas(document).PetCreatedEvent.required = ['type', 'data'];
    });
    const removed = result.judgements.find((judgement) => judgement.what === 'removed PetCreatedEvent.timestamp');
    expect(removed).toMatchObject({ class: 'breaking', verdict: 'fails' });
    expect(removed?.operations.map((affected) => affected.name)).toEqual(['webhook petCreated']);
    expect(result.passed).toBe(false);
  });

  it('breaks no receiver when a field is added to it', () => {
    const result = edited((document) => {
      schemas(document).PetCreatedEvent.properties.source = { type: 'string', maxLength: 20 };
    });
    expect(result.judgements.find((judgement) => judgement.what === 'added PetCreatedEvent.source')).toMatchObject({
      class: 'non-breaking',
    });
    expect(result.passed).toBe(true);
  });
});
