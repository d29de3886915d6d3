// Tools that build a contract-test collection from the contract and run it with one base URL:
// the Portman collection built from generated/openapi.json, run by newman against the server,
// probes included (asked under /v1, as a one-base-URL tool asks for them).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { collectionsOf } from '../../contract/collections.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { type RealServer, startRealServer } from '../support/conformance/real-server.ts';
import { jsonContent, namedExamples, requestBody } from '../support/contract-document.ts';
import { defined } from '../support/defined.ts';
import { escapeRegExp } from '../support/text.ts';

const bin = (name: string) => join(REPOSITORY_ROOT, 'node_modules/.bin', name);
const run = promisify(execFile);

interface NewmanReport {
  run: {
    stats: { assertions: { total: number; failed: number } };
    failures: Array<{ error: { message: string }; source: { name: string } }>;
    executions: Array<{ request: { method: string; url: { path: string[] } }; response: { code: number } }>;
  };
}

/**
 * The Portman configuration: the tests of portman-config.json, and the ids each create hands on,
 * from the contract: a create's answer `id` goes to the operations on one item of its path
 * (`{{petId}}` for getPet and updatePet, `{{endpointId}}` for getWebhookEndpoint), and to the
 * creates whose body names another collection's item (an order's `petId`), so a new collection or
 * operation needs no line here. A delete removes an item created for it just before (by its
 * collection's create, with the contract's first example), so that the calls after it, an order
 * naming a pet among them, still find the item the first create made.
 */
async function portmanConfig(): Promise<object> {
  const base = JSON.parse(await readFile(join(REPOSITORY_ROOT, 'test/interop/portman-config.json'), 'utf8'));
  const { operations } = loadContract();
  const creates = operations.filter((operation) => operation.method === 'POST' && '201' in operation.responses);
  const onItem = creates.flatMap((create) =>
    operations.flatMap((operation) => {
      const parameter = operation.path.match(new RegExp(`^${escapeRegExp(create.path)}/\\{(\\w+)\\}$`))?.[1];
      return parameter === undefined ? [] : [{ create, operation, parameter }];
    }),
  );
  const collections = collectionsOf(loadContract());
  const removals = new Set(
    collections.flatMap((collection) =>
      collection.create && collection.delete ? [collection.delete.operationId] : [],
    ),
  );
  const ids = new Set(collections.map((collection) => collection.idParameter));
  return {
    ...base,
    assignVariables: [...new Map(onItem.map(({ create, parameter }) => [create.operationId, parameter]))].map(
      ([operationId, parameter]) => ({
        openApiOperationId: operationId,
        collectionVariables: [{ responseBodyProp: 'id', name: parameter }],
      }),
    ),
    overwrites: [
      ...onItem.map(({ operation, parameter }) => ({
        openApiOperationId: operation.operationId,
        // A delete's item is the one made for it (below), a variable of its own: `{{petIdToRemove}}`.
        overwriteRequestPathVariables: [
          {
            key: parameter,
            value: `{{${parameter}${removals.has(operation.operationId) ? 'ToRemove' : ''}}}`,
            overwrite: true,
          },
        ],
      })),
      ...collections.flatMap((collection) => {
        const named = collection.fields.filter((field) => ids.has(field.name) && field.name !== collection.idParameter);
        return collection.create && named.length > 0
          ? [
              {
                openApiOperationId: collection.create.operationId,
                overwriteRequestBody: named.map((field) => ({
                  key: field.name,
                  value: `{{{${field.name}}}}`,
                  overwrite: true,
                })),
              },
            ]
          : [];
      }),
    ],
    operationPreRequestScripts: collections.flatMap(({ create, delete: remove, idParameter }) => {
      if (create === undefined || remove === undefined || idParameter === undefined) return [];
      const body = defined(requestBody(create.operationId), `the request body of ${create.operationId}`);
      const [, example] = defined(namedExamples(jsonContent(body))[0], `an example of ${create.operationId}'s body`);
      // A request-scoped variable: the collection's `{{petId}}` stays the first create's.
      const removed = `${idParameter}ToRemove`;
      const script = `pm.sendRequest({
  url: pm.variables.replaceIn('{{baseUrl}}') + ${JSON.stringify(create.path)},
  method: 'POST',
  header: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + pm.variables.get('bearerToken') },
  body: { mode: 'raw', raw: ${JSON.stringify(JSON.stringify(example.value))} },
}, (error, response) => { if (!error) pm.variables.set(${JSON.stringify(removed)}, response.json().id); });`;
      return [{ openApiOperationId: remove.operationId, scripts: [script] }];
    }),
  };
}

let server: RealServer;
let workDir: string;

beforeAll(async () => {
  server = await startRealServer();
  workDir = await mkdtemp(join(tmpdir(), 'portman-'));
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('the Portman collection of the contract, run by newman', { timeout: 120_000 }, () => {
  it('passes every assertion against the server, each operation and probe answered', async () => {
    const collection = join(workDir, 'collection.json');
    const report = join(workDir, 'newman.json');
    const config = join(workDir, 'portman-config.json');
    await writeFile(config, JSON.stringify(await portmanConfig()));
    await run(
      bin('portman'),
      [
        '--local',
        join(REPOSITORY_ROOT, 'generated/openapi.json'),
        '--output',
        collection,
        '--baseUrl',
        `${server.origin}/v1`,
        '--portmanConfigFile',
        config,
      ],
      { cwd: workDir },
    ); // Portman keeps its working files under ./tmp.
    await run(bin('newman'), [
      'run',
      collection,
      '--env-var',
      `bearerToken=${server.apiKey}`,
      '--reporters',
      'json',
      '--reporter-json-export',
      report,
    ]).catch(() => undefined); // A failed assertion exits 1: the report says which.
    const { run: outcome } = JSON.parse(await readFile(report, 'utf8')) as NewmanReport;

    expect(outcome.failures.map(({ source, error }) => `${source.name}: ${error.message}`)).toEqual([]);
    expect(outcome.stats.assertions.total).toBeGreaterThan(0);
    const answered = outcome.executions.map(({ request, response }) => ({
      request: `${request.method} /${request.url.path.join('/')}`,
      success: response.code >= 200 && response.code < 300,
    }));
    const declared = loadContract().operations.map((operation) => operation.path);
    for (const path of declared.filter((path) => !path.includes('{')))
      expect(answered).toContainEqual({ request: expect.stringMatching(new RegExp(`/v1${path}$`)), success: true });
  });
});
