import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(() => app.close());

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

describe('GET /healthz', () => {
  it('answers 200 alive without a key, counted against no rate limit', async () => {
    const response = await app.app.request('/healthz');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'alive' });
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toBeNull();
  });

  it('answers under the versioned base path too, for tools that take one base URL, without a key', async () => {
    const response = await app.app.request('/v1/healthz');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'alive' });
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.get(name), name).toBeNull();
  });

  it('answers another method under the versioned base path with 405 before asking for a key', async () => {
    const response = await app.app.request('/v1/healthz', { method: 'DELETE' });

    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('GET, HEAD');
  });

  it('answers another method with 405 and Allow before asking for a key', async () => {
    const response = await app.app.request('/healthz', { method: 'POST' });

    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
  });
});

describe('GET /readyz', () => {
  it('answers 200 ready while the storage answers', async () => {
    const response = await app.app.request('/readyz');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { storage: 'ok', limiter: 'ok' } });
  });

  it('answers under the versioned base path too, without a key', async () => {
    const response = await app.app.request('/v1/readyz');

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: { storage: 'ok', limiter: 'ok' } });
  });

  it('answers 503 with Retry-After, naming the storage, once the storage fails', async () => {
    app.db.close();

    const response = await app.app.request('/readyz');

    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await response.json()).toEqual({ status: 'unavailable', checks: { storage: 'unavailable', limiter: 'ok' } });
  });
});
