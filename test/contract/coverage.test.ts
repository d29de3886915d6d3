import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allResponses, contract, operations } from '../spec/contract.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const SUITE = new URL('./suite/', import.meta.url);

/**
 * The (operation, status) pairs the suite has a case for, as its files declare them with
 * `responseCase('<operationId>', <status>, ...)`.
 */
function declaredCases(): Array<{ operationId: string; status: string; file: string }> {
  return readdirSync(SUITE)
    .filter((file) => file.endsWith('.test.ts'))
    .flatMap((file) =>
      [...readFileSync(new URL(file, SUITE), 'utf8').matchAll(/\bresponseCase\(\s*'(\w+)',\s*(\d{3})\b/g)].map((match) => ({
        operationId: match[1]!,
        status: match[2]!,
        file,
      })),
    );
}

/** The path every server URL of the contract shares, e.g. `/v1`. */
function contractBasePath(): string {
  const paths = new Set(
    (contract.servers ?? []).map((server) => {
      const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => String(server.variables?.[name]?.default ?? ''));
      return new URL(url).pathname.replace(/\/$/, '');
    }),
  );
  expect(paths.size, 'servers sharing one base path').toBe(1);
  return [...paths][0]!;
}

/** A contract path as Hono writes a route: `/pets/{petId}` under `/v1` is `/v1/pets/:petId`. */
const routeOf = (method: string, path: string) => `${method.toUpperCase()} ${contractBasePath()}${path.replace(/\{([^}]+)\}/g, ':$1')}`;

describe('coverage of the contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** The server's routes under the base path, without middleware (registered for every method). */
  const serverRoutes = () =>
    new Set(t.app.routes.filter((route) => route.method !== 'ALL' && route.path.startsWith(`${contractBasePath()}/`)).map((route) => `${route.method} ${route.path}`));

  it.each(operations.map((candidate) => [candidate.operationId, candidate.method, candidate.path] as const))(
    '%s (%s %s) has a route in the server',
    (_, method, path) => {
      expect([...serverRoutes()]).toContain(routeOf(method, path));
    },
  );

  it('has no route under the base path that the contract does not declare', () => {
    const declared = new Set(operations.map((candidate) => routeOf(candidate.method, candidate.path)));
    expect([...serverRoutes()].filter((route) => !declared.has(route))).toEqual([]);
  });

  it.each(allResponses.map(({ operationId, status }) => [operationId, status] as const))(
    '%s: its declared %s response has a case in the suite',
    (operationId, status) => {
      expect(declaredCases().map((found) => `${found.operationId} ${found.status}`)).toContain(`${operationId} ${status}`);
    },
  );

  it('declares cases only for responses the contract declares', () => {
    const declared = new Set(allResponses.map(({ operationId, status }) => `${operationId} ${status}`));
    expect(declaredCases().filter((found) => !declared.has(`${found.operationId} ${found.status}`))).toEqual([]);
  });
});
