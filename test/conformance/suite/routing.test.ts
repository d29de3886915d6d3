import { describe, expect, it } from 'vitest';
import { type ApiRequest, atOrigin, errorCode, expectStatus, send } from '../../support/conformance/client.ts';
import { operations } from '../../support/contract-document.ts';
import { defined } from '../../support/defined.ts';
import { unknownPaths } from '../../support/unknown-paths.ts';

/**
 * Each path of the contract as the service serves it (under the base path, or beside the API for
 * the probes), with a concrete value for its parameters, and the methods it declares.
 */
const contractPaths = [...new Set(operations.map((candidate) => candidate.servedPath))].map((path) => ({
  path,
  concrete: path.replace(/\{[^}]+\}/g, '1'),
  methods: operations.filter((candidate) => candidate.servedPath === path).map((candidate) => candidate.method),
}));

const undeclared = contractPaths.flatMap(({ path, concrete, methods }) =>
  ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
    .filter((method) => !methods.includes(method))
    .map((method) => ({ path, concrete, methods, method })),
);

describe('routing outside the contract', () => {
  it.each(unknownPaths())('answers 404 not_found with the Error body for the unknown path %s', async (path) => {
    const request: ApiRequest = { method: 'GET', path };
    const response = await send(undefined, request);
    expectStatus(request, response, 404);
    expect(errorCode(response)).toBe('not_found');
  });

  it.each(undeclared)(
    'answers 405 method_not_allowed with an Allow header to $method $path',
    async ({ concrete, methods, method }) => {
      const request: ApiRequest = {
        method,
        path: concrete,
        ...(method === 'GET' ? {} : { json: { name: 'Rex', categoryId: 3 } }),
      };
      const response = await send(undefined, request, atOrigin());
      expectStatus(request, response, 405);
      expect(errorCode(response)).toBe('method_not_allowed');
      const allowed =
        response.headers
          .get('Allow')
          ?.split(',')
          .map((name) => name.trim()) ?? [];
      expect(allowed.filter((name) => name !== 'HEAD').sort()).toEqual([...methods].sort());
    },
  );

  it('answers 401 before 404: a request without a key learns nothing about the paths', async () => {
    const request: ApiRequest = {
      method: 'GET',
      path: defined(unknownPaths()[0], 'an unknown path'),
      authorization: null,
    };
    const response = await send(undefined, request);
    expectStatus(request, response, 401);
    expect(errorCode(response)).toBe('unauthorized');
  });

  it.each([
    ['an unknown path', { method: 'GET', path: defined(unknownPaths()[0], 'an unknown path') }],
    ['an undeclared method', { method: 'DELETE', path: '/pets' }],
  ] as const)('carries the rate-limit headers on the answer to %s', async (_, request) => {
    const response = await send(undefined, request);
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
      expect(response.headers.get(name), name).toMatch(/^(0|[1-9][0-9]*)$/);
    }
  });
});
