// /docs, /openapi.json and /openapi.yaml on the API server: outside /v1, no key, not rate limited.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureDocs } from '../../scripts/docs/ensure.ts';
import { contractLocations } from '../../scripts/pipeline/locations.ts';
import { DEFAULT_DOCS_FILES, type DocsFiles, docsRoutes } from '../../server/docs.ts';
import { defined } from '../support/defined.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS_PATHS = ['/docs', '/openapi.json', '/openapi.yaml'];
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

describe('docs routes of createApp', { timeout: 120_000 }, () => {
  let testApp: TestApp;
  beforeAll(async () => {
    const ensured = await ensureDocs(contractLocations(repoRoot));
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
  });
  beforeEach(async () => {
    testApp = await createTestApp();
  });
  afterEach(() => testApp.close());

  /** A request as a stranger sends it: no Authorization header at all. */
  const anonymous = (target: string, init: RequestInit = {}) => testApp.app.request(target, init);

  it('serves generated/openapi.json at /openapi.json as JSON', async () => {
    const response = await anonymous('/openapi.json');

    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    expect(await response.json()).toEqual(JSON.parse(await readFile(DEFAULT_DOCS_FILES.openapiJson, 'utf8')));
  });

  it('serves generated/openapi.yaml at /openapi.yaml as YAML', async () => {
    const response = await anonymous('/openapi.yaml');

    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/yaml\b/);
    expect(await response.text()).toBe(await readFile(DEFAULT_DOCS_FILES.openapiYaml, 'utf8'));
  });

  it('serves the built page at /docs as HTML', async () => {
    const response = await anonymous('/docs');

    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html\b/);
    expect(await response.text()).toBe(await readFile(DEFAULT_DOCS_FILES.page, 'utf8'));
  });

  it("serves the page's download links: relative to /docs they resolve to the bundles", async () => {
    const page = await (await anonymous('/docs')).text();
    const hrefs = new Set(
      [...page.matchAll(/<a href="([^"]+)"[^>]*download/g)].map((match) => defined(match[1], 'a link address')),
    );
    const links = [...hrefs].map((href) => new URL(href, 'http://localhost/docs').pathname);

    expect(links.sort()).toEqual(['/openapi.json', '/openapi.yaml']);
    for (const link of links) expect((await anonymous(link)).status, link).toBe(200);
  });

  it.each(DOCS_PATHS)('answers %s without a key and without rate-limit headers', async (target) => {
    const response = await anonymous(target);

    expect(response.status).toBe(200);
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.has(name), name).toBe(false);
  });

  it("counts no docs request against the caller's window, even past the free plan's minute limit", async () => {
    for (let round = 0; round < 25; round += 1) {
      for (const target of DOCS_PATHS) expect((await anonymous(target)).status).toBe(200);
    }

    const api = await anonymous('/v1/pets');

    expect(api.status).toBe(401);
    expect(api.headers.get('X-RateLimit-Limit')).toBe('60');
    expect(api.headers.get('X-RateLimit-Remaining')).toBe('59');
  });

  it('still requires a key under /v1', async () => {
    const withoutKey = await anonymous('/v1/pets');
    const withKey = await testApp.request('/v1/pets');

    expect(withoutKey.status).toBe(401);
    expect(withoutKey.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await withoutKey.json()).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(withKey.status).toBe(200);
  });

  it.each(DOCS_PATHS)(
    'lets caches keep %s but revalidate it: no-cache with an ETag, 304 while it matches',
    async (target) => {
      const first = await anonymous(target);
      const etag = first.headers.get('ETag');

      expect(first.headers.get('Cache-Control')).toBe('no-cache');
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await anonymous(target, { headers: { 'If-None-Match': defined(etag, `the ETag of ${target}`) } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
    },
  );

  it('redirects /docs/ to /docs, where the relative download links resolve', async () => {
    const response = await anonymous('/docs/');

    expect(response.status).toBe(308);
    const location = defined(response.headers.get('Location'), 'a Location header');
    expect(new URL(location, 'http://localhost/docs/').pathname).toBe('/docs');
  });
});

describe('docsRoutes', () => {
  let directory: string;
  let files: DocsFiles;
  let app: Hono;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'animal-store-docs-routes-'));
    files = { ...DEFAULT_DOCS_FILES, page: path.join(directory, 'index.html') };
    app = new Hono().route('/', docsRoutes(files));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('answers /docs with a 404 Error body saying to run `npm run docs` when the page was never built', async () => {
    const response = await app.request('/docs');

    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    const body = (await response.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ code: 'not_found', status: 404 });
    expect(body.message).toContain('npm run docs');
  });

  it('serves a page rebuilt while the server runs, under a new ETag', async () => {
    await writeFile(files.page, '<!DOCTYPE html><title>first build</title>');
    const first = await app.request('/docs');
    await writeFile(files.page, '<!DOCTYPE html><title>second build</title>');

    const second = await app.request('/docs', {
      headers: { 'If-None-Match': defined(first.headers.get('ETag'), 'the first ETag') },
    });

    expect(second.status).toBe(200);
    expect(await second.text()).toContain('second build');
    expect(second.headers.get('ETag')).not.toBe(first.headers.get('ETag'));
  });
});
