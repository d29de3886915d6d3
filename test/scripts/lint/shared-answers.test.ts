import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundle, lint, loadConfig, stringifyYaml } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { useTempDirs } from '../../support/temp-dir.ts';

// A small contract of its own, written twice: once with its shared answers stated once in the
// root's `x-shared-answers`, once with every answer written out in each operation, as a contract
// was written before. Bundled with the repository's own configuration, both must be the same
// document, byte for byte, so that nothing read from the bundle can tell them apart.

const config = await loadConfig({ configPath: path.join(REPOSITORY_ROOT, 'redocly.yaml') });
const tempDir = useTempDirs();

/** A shared answer's file; with the shared header written into it when `explicit`. */
const error = (description: string, explicit: boolean, ownHeaders = '') => {
  const limit = explicit ? '  X-Limit:\n    $ref: ../headers/Limit.yaml\n' : '';
  const headers = ownHeaders + limit === '' ? '' : `headers:\n${ownHeaders}${limit}`;
  return `description: "${description}"\n${headers}content:\n  application/json:\n    schema:\n      type: object\n`;
};
const header = (description: string) => `description: ${description}
schema:
  type: integer
`;

const components = (explicit: boolean): Record<string, string> => ({
  'responses/Unauthorized.yaml': error(
    'No key',
    explicit,
    '  WWW-Authenticate:\n    $ref: ../headers/WWW-Authenticate.yaml\n',
  ),
  'responses/TooManyRequests.yaml': error('Too many', explicit),
  'responses/Unavailable.yaml': error('Unavailable', explicit),
  'responses/UnsupportedMediaType.yaml': error('Not JSON', explicit),
  'responses/UnsupportedMergePatch.yaml': error('Not a merge patch', explicit),
  'headers/WWW-Authenticate.yaml': header('Challenge'),
  'headers/Limit.yaml': header('Limit'),
  'headers/Deprecation.yaml': header('Deprecated'),
  'parameters/Signature.yaml': 'name: webhook-signature\nin: header\nrequired: true\nschema:\n  type: string\n',
});

const SHARED = `x-shared-answers:
  responses:
    "401":
      $ref: components/responses/Unauthorized.yaml
    "429":
      $ref: components/responses/TooManyRequests.yaml
    "503":
      $ref: components/responses/Unavailable.yaml
  bodyResponses:
    application/json:
      "415":
        $ref: components/responses/UnsupportedMediaType.yaml
    application/merge-patch+json:
      "415":
        $ref: components/responses/UnsupportedMergePatch.yaml
  headers:
    X-Limit:
      $ref: components/headers/Limit.yaml
  webhooks:
    security: []
    parameters:
      - $ref: components/parameters/Signature.yaml
    responses:
      "200":
        description: Any 2xx acknowledges the event.
  deprecatedHeaders:
    Deprecation:
      $ref: components/headers/Deprecation.yaml
`;

const root = (shared: string) => `openapi: 3.1.0
info:
  title: Things
  version: 1.0.0
security:
  - key: []
paths:
  /things:
    $ref: paths/things.yaml
  /healthz:
    $ref: paths/healthz.yaml
webhooks:
  thingMade:
    $ref: webhooks/thingMade.yaml
${shared}components:
  securitySchemes:
    key:
      type: http
      scheme: bearer
`;

const body = (mediaType: string) => `  requestBody:
    content:
      ${mediaType}:
        schema:
          type: object
`;
const ref = (file: string) => `        $ref: ../components/${file}`;
const shared401 = `    "401":\n  ${ref('responses/Unauthorized.yaml')}\n`;
const shared429 = `    "429":\n  ${ref('responses/TooManyRequests.yaml')}\n    "503":\n  ${ref('responses/Unavailable.yaml')}\n`;
const limitHeader = `        X-Limit:\n  ${ref('headers/Limit.yaml')}\n`;

/** The operations of `/things`, with what they share written out when `explicit`. */
function things(explicit: boolean): string {
  const only = (text: string) => (explicit ? text : '');
  return `get:
  operationId: listThings
  responses:
    "200":
      description: The things.
      headers:
        Link:
          schema:
            type: string
${only(limitHeader)}${only(shared401)}${only(shared429)}post:
  operationId: createThing
${body('application/json')}  responses:
    "201":
      description: Created.
${only(`      headers:\n${limitHeader}`)}    "401":
      description: The operation's own 401 is kept.
${only(`      headers:\n${limitHeader}`)}${only(`    "415":\n  ${ref('responses/UnsupportedMediaType.yaml')}\n`)}${only(shared429)}patch:
  operationId: changeThing
${body('application/merge-patch+json')}  responses:
    "200":
      description: Changed.
${only(`      headers:\n${limitHeader}`)}${only(shared401)}${only(`    "415":\n  ${ref('responses/UnsupportedMergePatch.yaml')}\n`)}${only(shared429)}delete:
  operationId: removeThing
  deprecated: true
  responses:
    "204":
      description: Removed.
${only(`      headers:
        Deprecation:
  ${ref('headers/Deprecation.yaml')}
${limitHeader}`)}${only(`${deprecatedCopy(401, 'No key', `        WWW-Authenticate:\n  ${ref('headers/WWW-Authenticate.yaml')}\n`)}${deprecatedCopy(429, 'Too many')}${deprecatedCopy(503, 'Unavailable')}`)}`;
}

/** A shared answer as a deprecated operation carries it: a copy, with its headers and the shared ones. */
function deprecatedCopy(status: number, description: string, ownHeaders = ''): string {
  return `    "${status}":
      description: "${description}"
      headers:
${ownHeaders}        Deprecation:
  ${ref('headers/Deprecation.yaml')}
${limitHeader}      content:
        application/json:
          schema:
            type: object
`;
}

const HEALTHZ = `get:
  operationId: healthz
  security: []
  responses:
    "200":
      description: Alive.
`;

/** A webhook, with what every webhook shares written out when `explicit`. */
const webhook = (explicit: boolean) => `post:
  operationId: thingMade
${explicit ? `  security: []\n  parameters:\n    - $ref: ../components/parameters/Signature.yaml\n` : ''}  requestBody:
    content:
      application/json:
        schema:
          type: object
${explicit ? '  responses:\n    "200":\n      description: Any 2xx acknowledges the event.\n' : ''}`;

/** The contract written into a folder of its own; answers the root file. */
async function written(explicit: boolean): Promise<string> {
  const dir = tempDir();
  const files: Record<string, string> = {
    'openapi.yaml': root(explicit ? '' : SHARED),
    'paths/things.yaml': things(explicit),
    'paths/healthz.yaml': HEALTHZ,
    'webhooks/thingMade.yaml': webhook(explicit),
    ...Object.fromEntries(Object.entries(components(explicit)).map(([file, text]) => [`components/${file}`, text])),
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text, 'utf8');
  }
  return path.join(dir, 'openapi.yaml');
}

async function bundled(explicit: boolean) {
  const result = await bundle({ ref: await written(explicit), config, dereference: false });
  expect(result.problems).toEqual([]);
  return result.bundle.parsed as Record<string, unknown>;
}

describe('x-shared-answers', () => {
  it('bundles into the same document as every answer written out in each operation', async () => {
    const [shared, explicit] = await Promise.all([bundled(false), bundled(true)]);
    expect(stringifyYaml(shared)).toBe(stringifyYaml(explicit));
  });

  it('never reaches the bundle itself', async () => {
    expect(await bundled(false)).not.toHaveProperty('x-shared-answers');
  });

  it('is seen by the lint as the bundle has it: every operation behind the key with its 401, 429 and 503', async () => {
    const problems = await lint({ ref: await written(false), config });
    expect(problems.map(({ ruleId }) => ruleId)).not.toContain('rule/operation-declares-401-429-and-503');
  });
});
