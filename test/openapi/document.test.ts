import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerObject } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/bundled.ts';
import { collectionsOf } from '../../contract/collections.ts';
import { type OpenApiDocument, operationObjects, resolveRef } from '../../contract/document.ts';
import { webhookDelivery, webhookEvents } from '../../contract/webhooks.ts';
import { readConfig } from '../../server/process/config.ts';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';
import { componentSchema, contract, keywords, operation, operations } from '../support/contract-document.ts';

function server(url: string): ServerObject {
  const found = contract.servers?.find((candidate) => candidate.url === url);
  if (!found) throw new Error(`The contract declares no server ${url}`);
  return found;
}

function expandedUrl({ url, variables }: ServerObject): string {
  return url.replace(/\{([^}]+)\}/g, (placeholder, name: string) => variables?.[name]?.default ?? placeholder);
}

/** A released contract, as `npm run release` recorded it. */
function readRelease(version: string): OpenApiDocument {
  return JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'releases', version, 'openapi.json'), 'utf8'));
}

function tag(name: string) {
  const found = contract.tags?.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`The contract declares no tag ${name}`);
  return found;
}

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(contract.openapi).toMatch(/^3\.1\.\d+$/);
  });
});

describe('servers', () => {
  it('declares production as the server variable {base_url}', () => {
    expect(server('{base_url}').variables?.base_url?.default).toMatch(/^https:\/\//);
  });

  it('declares staging as the server variable {staging_base_url}', () => {
    expect(server('{staging_base_url}').variables?.staging_base_url?.default).toMatch(/^https:\/\//);
  });

  it('declares the local development server where the server listens when started without configuration', () => {
    const { host, port } = readConfig({});
    expect(['127.0.0.1', '::1'], 'the default HOST, which localhost names').toContain(host);
    const local = (contract.servers ?? []).filter(
      ({ url }) => !url.includes('{') && new URL(url).hostname === 'localhost',
    );
    expect(local.map(({ url }) => url)).toEqual([`http://localhost:${port}/v1`]);
  });

  it('writes paths relative to the base, without the version segment', () => {
    const paths = Object.keys(contract.paths ?? {});
    expect(paths).not.toHaveLength(0);
    for (const path of paths) expect(path).not.toMatch(/^\/v\d+(\/|$)/);
  });
});

describe('tags', () => {
  it.each(['pets', 'health', 'store'])('declares the tag %s with a description', (name) => {
    expect(tag(name).description?.trim()).toBeTruthy();
  });

  it.each(['listPets', 'createPet', 'getPet'])('groups %s under pets', (operationId) => {
    expect(operation(operationId).operation.tags).toEqual(['pets']);
  });

  it.each(['getHealth', 'getReadiness'])('groups %s under health', (operationId) => {
    expect(operation(operationId).operation.tags).toEqual(['health']);
  });
});

describe('store group: orders, experimental since 1.1.0', () => {
  const storeOperations = operations.filter(({ operation: op }) => op.tags?.includes('store'));

  it('says in the description of the store tag that its operations are experimental', () => {
    expect(tag('store').description).toMatch(/experimental/i);
  });

  it('puts every path under /store in the store group, and marks each of its operations experimental', () => {
    const storePaths = operations.filter(({ path }) => path.startsWith('/store'));
    expect(storePaths.map(({ operationId }) => operationId).sort()).toEqual(
      storeOperations.map(({ operationId }) => operationId).sort(),
    );
    expect(storeOperations.length).toBeGreaterThan(0);
    for (const { operationId, operation: op } of storeOperations)
      expect(op['x-stability'], operationId).toBe('experimental');
  });
});

describe('category resource, not designed in 1.0.0', () => {
  it('declares no category path and no Category schema', () => {
    expect(Object.keys(contract.paths ?? {}).filter((path) => /categor/i.test(path))).toEqual([]);
    expect(Object.keys(contract.components?.schemas ?? {})).not.toContain('Category');
  });

  it('tells clients that any categoryId in range is accepted without an existence check', () => {
    expect(keywords(componentSchema('CategoryId')).description).toMatch(/not checked for existence/i);
  });
});

describe('events', () => {
  const webhooks = webhookEvents(contract);

  it('declares as webhooks only events a write of one of its collections sends, and no callbacks', () => {
    const sent = collectionsOf(loadContract()).flatMap((collection) => Object.values(collection.events));
    expect(webhooks.map(({ type }) => type).sort()).toEqual(sent.sort());
    expect(operations.filter(({ operation: op }) => op.callbacks !== undefined)).toEqual([]);
  });

  it.each(webhooks)(
    '$name is an experimental POST, sent without a key, with the Standard Webhooks headers',
    ({ name }) => {
      const post = resolveRef<Record<string, unknown>>(contract, (contract.webhooks as Record<string, unknown>)[name])
        .post as Record<string, unknown>;
      expect(post.operationId, 'the operationId is the webhook name, which OperationId leaves out').toBe(name);
      expect(post['x-stability']).toBe('experimental');
      expect(post.security).toEqual([]);
      const headers = (post.parameters as unknown[]).map((parameter) =>
        resolveRef<{ name: string; in: string }>(contract, parameter),
      );
      expect(headers.map((header) => `${header.in}:${header.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
      ]);
    },
  );

  it('states the delivery timeout and the retry schedule as data', () => {
    const { timeoutSeconds, retryDelaysSeconds } = webhookDelivery(contract);
    expect(timeoutSeconds).toBeGreaterThan(0);
    expect(retryDelaysSeconds.length).toBeGreaterThan(0);
  });
});

describe('versioning', () => {
  it('is a semantic version whose major version is the /vN segment of the base addresses', () => {
    const [major] = /^(\d+)\.\d+\.\d+$/.exec(contract.info.version)?.slice(1) ?? [];
    expect(major).toBeDefined();
    for (const candidate of contract.servers ?? []) expect(new URL(expandedUrl(candidate)).pathname).toBe(`/v${major}`);
  });

  it('ends every base address with the version segment /v1', () => {
    expect(contract.servers).not.toHaveLength(0);
    for (const candidate of contract.servers ?? []) {
      expect(new URL(expandedUrl(candidate)).pathname).toBe('/v1');
    }
  });

  it('gives every deprecated operation its removal date as x-sunset', () => {
    const deprecated = operations.filter(({ operation: op }) => op.deprecated === true);
    expect(deprecated.map(({ operationId }) => operationId)).toEqual(['getPet']);
    for (const { operation: op } of deprecated) expect(op['x-sunset']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('gives no operation of the 1.0.0 release a stability marker', () => {
    const released = operationObjects(readRelease('1.0.0')).map(({ definition }) => definition.operationId);
    expect(released).not.toHaveLength(0);
    const marked = operations.filter(
      ({ operationId, operation: op }) => released.includes(operationId) && 'x-stability' in op,
    );
    expect(marked).toEqual([]);
  });

  it('documents the stability markers experimental and beta', () => {
    expect(contract.info.description).toMatch(/x-stability: experimental/);
    expect(contract.info.description).toMatch(/x-stability: beta/);
  });
});
