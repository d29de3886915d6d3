// Headers every answer carries so that a browser neither guesses its type nor a cache keeps it,
// on the API's answers of every kind, those of the HTTP layer below the app included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningApp, startListeningApp } from '../../support/listening-app.ts';
import { converse } from '../../support/raw-http.ts';
import { createTestApp } from '../../support/test-app.ts';

describe('every API answer', () => {
  let app: ListeningApp;
  beforeAll(async () => {
    app = await startListeningApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each<[string, string, RequestInit & { key?: boolean }, number]>([
    ['a page of pets', '/v1/pets', { key: true }, 200],
    ['a created pet', '/v1/pets', { key: true, method: 'POST', body: '{"name":"Rex","categoryId":1}' }, 201],
    ['an invalid body', '/v1/pets', { key: true, method: 'POST', body: '{"name":1}' }, 400],
    ['a missing key', '/v1/pets', {}, 401],
    ['an unknown path', '/v1/nothing', { key: true }, 404],
    ['a method the path lacks', '/v1/pets', { key: true, method: 'DELETE' }, 405],
    ['the liveness probe', '/healthz', {}, 200],
    ['the readiness probe', '/readyz', {}, 200],
    ['the index', '/', {}, 200],
  ])('carries X-Content-Type-Options: nosniff and Cache-Control: no-store on %s', async (_case, path, init, status) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (init.key) headers.Authorization = `Bearer ${app.apiKey}`;
    const response = await fetch(app.origin + path, { ...init, headers });

    expect(response.status).toBe(status);
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
  });

  it('carries them on a refusal of the HTTP layer (a malformed request line)', async () => {
    const conversation = await converse(app.origin, ['G@T / HTTP/1.1\r\nHost: localhost\r\n\r\n']);

    expect(conversation.responses[0]?.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
  });

  it('lets the docs and the contract be cached until they change, still with nosniff', async () => {
    const response = await fetch(`${app.origin}/openapi.json`);

    expect(response.headers.get('Cache-Control')).toBe('no-cache');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });
});

describe('a CORS preflight', () => {
  it('says with Access-Control-Max-Age how long the browser may reuse it', async () => {
    const testApp = await createTestApp({ corsOrigins: ['https://shop.example'] });
    const response = await testApp.app.request('/v1/pets', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    });

    expect(response.status).toBe(204);
    expect(Number(response.headers.get('Access-Control-Max-Age'))).toBeGreaterThan(0);
    testApp.close();
  });
});
