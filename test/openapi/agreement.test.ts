// What no lint rule can check, because it lies outside the contract: the contract agrees with
// the code that reads it and with the releases it recorded, each side read as it is. The
// conventions of the contract itself are lint rules (redocly.yaml, the table of
// openapi/README.md); what the service does is tested against every target in test/conformance/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { collectionsOf } from '../../contract/collections.ts';
import { type OpenApiDocument, operationObjects } from '../../contract/document.ts';
import { webhookEvents } from '../../contract/webhooks.ts';
import { readConfig } from '../../server/process/config.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { basePath, contract, operations, resolve } from '../support/contract-document.ts';

const RELEASES = path.join(REPOSITORY_ROOT, 'releases');

/** A released contract, as `npm run release` recorded it. */
function readRelease(version: string): OpenApiDocument {
  return JSON.parse(readFileSync(path.join(RELEASES, version, 'openapi.json'), 'utf8'));
}

describe('the local development server of the contract', () => {
  it('is where the server listens when started without configuration', () => {
    const { host, port } = readConfig({});
    expect(['127.0.0.1', '::1'], 'the default HOST, which localhost names').toContain(host);
    const local = (contract.servers ?? []).filter(
      ({ url }) => !url.includes('{') && new URL(url).hostname === 'localhost',
    );
    expect(local.map(({ url }) => url)).toEqual([`http://localhost:${port}${basePath}`]);
  });
});

describe('the webhooks of the contract', () => {
  it('are the events the writes of its collections send, as the collection layer reads them, and no other', () => {
    const sent = collectionsOf(loadContract()).flatMap((collection) => Object.values(collection.events));
    expect(
      webhookEvents(contract)
        .map(({ type }) => type)
        .sort(),
    ).toEqual(sent.sort());
  });
});

describe('the releases', () => {
  const versions = readdirSync(RELEASES);

  it('are recorded', () => {
    expect(versions).not.toHaveLength(0);
  });

  it.each(versions)('%s: an operation it released without a stability marker carries none now', (version) => {
    const stable = operationObjects(readRelease(version))
      .filter(({ definition }) => !('x-stability' in definition))
      .map(({ definition }) => definition.operationId);
    const marked = operations.filter(
      ({ operationId, operation }) => stable.includes(operationId) && 'x-stability' in operation,
    );
    expect(marked.map(({ operationId }) => operationId)).toEqual([]);
  });
});

describe('the bundle npm run generate writes', () => {
  it('holds no marker of a value written from the contract: each stands replaced by its value', () => {
    expect(JSON.stringify(contract)).not.toMatch(/<!-- [^>]* -->/);
  });

  const retained = operations.flatMap(({ operationId, operation }) =>
    (operation.parameters ?? [])
      .map((parameter) => resolve(parameter) as unknown as Record<string, unknown>)
      .filter((parameter) => parameter['x-retention-hours'] !== undefined)
      .map((parameter) => ({ operationId, name: parameter.name, parameter })),
  );

  it.each(retained)(
    '$operationId: the description of $name states the retention its x-retention-hours sets',
    ({ parameter }) => {
      expect(parameter.description).toMatch(new RegExp(`\\b${parameter['x-retention-hours']} hours?\\b`));
    },
  );
});
