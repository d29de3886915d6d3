// The probes for load balancers: served beside the versioned API, without an API key and outside
// the rate limits (`security: []`), so that the rules of the operations behind the key (401, 429,
// the rate-limit headers, the Error body) are not theirs. Here, the rules that are.
import type { PathItemObject, ServerObject } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import {
  basePath,
  componentSchema,
  contract,
  header,
  jsonContent,
  keywords,
  namedExamples,
  operation,
  propertyOf,
  publicOperations,
  resolve,
  response,
  responses,
} from '../support/contract-document.ts';
import { accepts } from '../support/schema-validator.ts';

const PROBES = [
  { operationId: 'getHealth', path: '/healthz', statuses: ['200'], schema: 'Health' },
  { operationId: 'getReadiness', path: '/readyz', statuses: ['200', '503'], schema: 'Readiness' },
];

/** A server's address with its variables at their defaults. */
function expandedUrl({ url, variables }: ServerObject): URL {
  return new URL(url.replace(/\{([^}]+)\}/g, (placeholder, name: string) => variables?.[name]?.default ?? placeholder));
}

function pathItem(path: string): PathItemObject {
  const found = contract.paths?.[path];
  if (found === undefined) throw new Error(`The contract has no path ${path}`);
  return resolve<PathItemObject>(found);
}

describe('the probes', () => {
  it('are the only operations without an API key: every other one is behind it', () => {
    expect(publicOperations.map(({ operationId }) => operationId)).toEqual(
      PROBES.map(({ operationId }) => operationId),
    );
  });

  it.each(PROBES)(`$operationId is GET $path, served there and not under ${basePath}`, ({ operationId, path }) => {
    expect(basePath).toMatch(/^\/v\d+$/);
    expect(operation(operationId)).toMatchObject({ method: 'GET', path, servedPath: path });
  });

  it.each(PROBES)(
    '$operationId is marked security: [], overriding the key the document requires',
    ({ operationId }) => {
      expect(contract.security).not.toHaveLength(0);
      expect(operation(operationId).operation.security).toEqual([]);
    },
  );

  it.each(PROBES)('$operationId is served on the origins of the API, without its version segment', ({ path }) => {
    const servers = pathItem(path).servers ?? [];
    expect(servers).not.toHaveLength(0);
    for (const server of servers) expect(expandedUrl(server).pathname).toBe('/');
    const apiOrigins = (contract.servers ?? []).map((server) => expandedUrl(server).origin);
    expect(servers.map((server) => expandedUrl(server).origin)).toEqual(apiOrigins);
  });

  it.each(PROBES)('$operationId declares only $statuses: no 401, no 429', ({ operationId, statuses }) => {
    expect(responses(operationId).map(([status]) => status)).toEqual(statuses);
  });

  it.each(PROBES)('$operationId declares no X-RateLimit-* header on any response', ({ operationId }) => {
    for (const [status, declared] of responses(operationId)) {
      const names = Object.keys(declared.headers ?? {}).filter((name) => /^x-ratelimit-/i.test(name));
      expect(names, `${operationId} ${status}`).toEqual([]);
    }
  });

  it.each(PROBES)(
    '$operationId answers every status with the $schema body as application/json, not the Error body',
    ({ operationId, statuses, schema }) => {
      for (const status of statuses) {
        const declared = response(operationId, status);
        expect(Object.keys(declared.content ?? {}), `${operationId} ${status}`).toEqual(['application/json']);
        const body = resolve(jsonContent(declared).schema ?? {});
        expect(body, `${operationId} ${status}`).toBe(componentSchema(schema));
        expect(body).not.toBe(componentSchema('Error'));
      }
    },
  );

  it.each(PROBES.flatMap(({ operationId, statuses }) => statuses.map((status) => ({ operationId, status }))))(
    '$operationId $status has named examples, each fitting its schema',
    ({ operationId, status }) => {
      const media = jsonContent(response(operationId, status));
      const examples = namedExamples(media);
      expect(examples).not.toHaveLength(0);
      for (const [name, example] of examples) {
        expect(accepts(media.schema ?? {}, example.value), `${operationId} ${status} example ${name}`).toBe(true);
      }
    },
  );
});

describe('getHealth', () => {
  it('answers 200 with status alive and nothing else', () => {
    const health = componentSchema('Health');
    expect(accepts(health, { status: 'alive' })).toBe(true);
    expect(accepts(health, { status: 'ready' })).toBe(false);
    expect(accepts(health, { status: 'alive', checks: {} })).toBe(false);
  });
});

describe('getReadiness', () => {
  it('says ready, unavailable or stopping, with the state of the storage and of the rate limiter', () => {
    const readiness = componentSchema('Readiness');
    expect(keywords(readiness).required).toEqual(['status', 'checks']);
    expect(keywords(propertyOf(readiness, 'status')).enum).toEqual(['ready', 'unavailable', 'stopping']);
    const checks = { storage: 'ok', limiter: 'unavailable' };
    expect(accepts(readiness, { status: 'unavailable', checks })).toBe(true);
    expect(accepts(readiness, { status: 'unavailable', checks: { storage: 'ok' } })).toBe(false);
    expect(accepts(readiness, { status: 'unavailable', checks: { ...checks, cache: 'ok' } })).toBe(false);
    expect(accepts(readiness, { status: 'unavailable', checks: { ...checks, storage: 'down' } })).toBe(false);
  });

  it('shows ready, with every check ok, in its 200 examples', () => {
    for (const [, example] of namedExamples(jsonContent(response('getReadiness', '200')))) {
      expect(example.value).toEqual({ status: 'ready', checks: { storage: 'ok', limiter: 'ok' } });
    }
  });

  it('shows a state other than ready, with a check not ok, in its 503 examples', () => {
    for (const [, example] of namedExamples(jsonContent(response('getReadiness', '503')))) {
      const { status, checks } = example.value as { status: string; checks: Record<string, string> };
      expect(status).not.toBe('ready');
      if (status === 'unavailable') expect(Object.values(checks)).toContain('unavailable');
    }
  });

  it('carries Retry-After on 503, in whole seconds, at least 1', () => {
    const retryAfter = header(response('getReadiness', '503'), 'Retry-After');
    expect(retryAfter?.required).toBe(true);
    expect(keywords(retryAfter?.schema)).toMatchObject({ type: 'integer', minimum: 1 });
    expect(accepts(retryAfter?.schema ?? {}, 0)).toBe(false);
  });
});
