// The published docs folder under /docs/, /openapi.json and /openapi.yaml on the API server:
// outside /v1, no key, not rate limited.
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../contract/bundled.ts';
import { listen } from '../../../node/listen.ts';
import { ensureDocs } from '../../../scripts/docs/ensure.ts';
import { LLMS_FULL_TXT, LLMS_TXT } from '../../../scripts/docs/markdown-pages.ts';
import { contractLocations } from '../../../scripts/pipeline/locations.ts';
import { DEFAULT_DOCS_FILES, DOCS_LIMITS, type DocsFiles, docsRoutes } from '../../../server/docs/routes.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';
import { WITHOUT_KEY_LIMITS, WITHOUT_KEY_PLAN } from '../../support/contract-rate-limits.ts';
import { defined } from '../../support/defined.ts';
import { converse } from '../../support/raw-http.ts';
import { createTestApp, type TestApp } from '../../support/test-app.ts';

const DOCS_PATHS = [
  '/docs/',
  '/docs/1.0.0/',
  '/docs/changelog.html',
  '/docs/openapi.json',
  '/openapi.json',
  '/openapi.yaml',
];
const PAGES = ['/docs/', '/docs/1.0.0/', '/docs/changelog.html'];

/** The addresses a page links to: its switcher's options, its Changelog and llms.txt links and its download links. */
function pageLinks(html: string): { switcher: string[]; changelog: string[]; agents: string[]; downloads: string[] } {
  const nav = defined(/<nav id="docs-versions"[\s\S]*?<\/nav>/.exec(html)?.[0], 'the version switcher');
  const hrefs = (pattern: RegExp, text: string) => [
    ...new Set([...text.matchAll(pattern)].map((match) => defined(match[1], 'a link address'))),
  ];
  return {
    switcher: hrefs(/<option value="([^"]+)"/g, nav),
    changelog: hrefs(/<a href="([^"]+)"[^>]*>Changelog</g, nav),
    agents: hrefs(new RegExp(`<a href="([^"]+)"[^>]*>${LLMS_TXT}<`, 'g'), nav),
    downloads: hrefs(/<a href="([^"]+)"[^>]*download/g, html),
  };
}
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

describe('docs routes of createApp', { timeout: 120_000 }, () => {
  let testApp: TestApp;
  beforeAll(async () => {
    const ensured = await ensureDocs(contractLocations(REPOSITORY_ROOT));
    if (ensured.outcome === 'failed') throw new Error(ensured.problem);
  }, 120_000);
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

  it('serves the draft page of dist/docs/ at /docs/ as HTML', async () => {
    const response = await anonymous('/docs/');

    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html\b/);
    expect(await response.text()).toBe(await readFile(path.join(DEFAULT_DOCS_FILES.dir, 'index.html'), 'utf8'));
  });

  it("serves release 1.0.0's page at /docs/1.0.0/ and the changelog at /docs/changelog.html", async () => {
    for (const [target, file] of [
      ['/docs/1.0.0/', '1.0.0/index.html'],
      ['/docs/changelog.html', 'changelog.html'],
    ] as const) {
      const response = await anonymous(target);

      expect(response.status, target).toBe(200);
      expect(response.headers.get('Content-Type'), target).toMatch(/^text\/html\b/);
      expect(await response.text(), target).toBe(await readFile(path.join(DEFAULT_DOCS_FILES.dir, file), 'utf8'));
    }
  });

  it('serves every file of dist/docs/ with the type of its kind, the console worker as JavaScript', async () => {
    const published = (await readdir(DEFAULT_DOCS_FILES.dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
      .map((entry) => path.relative(DEFAULT_DOCS_FILES.dir, path.join(entry.parentPath, entry.name)));
    expect(published).toContain('mockServiceWorker.js');

    for (const file of published) {
      const response = await anonymous(`/docs/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('Content-Type'), file).not.toBe('application/octet-stream');
    }
    const worker = await anonymous('/docs/mockServiceWorker.js');
    expect(worker.headers.get('Content-Type')).toMatch(/^text\/javascript\b/);
    expect(worker.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });

  it('redirects /docs to /docs/, where the relative links of the draft page resolve', async () => {
    const response = await anonymous('/docs');

    expect(response.status).toBe(308);
    const location = defined(response.headers.get('Location'), 'a Location header');
    expect(new URL(location, 'http://localhost/docs').pathname).toBe('/docs/');
  });

  it('redirects a release folder asked without its slash to the folder, /docs/1.0.0 to /docs/1.0.0/', async () => {
    const response = await anonymous('/docs/1.0.0');

    expect(response.status).toBe(308);
    const location = defined(response.headers.get('Location'), 'a Location header');
    expect(new URL(location, 'http://localhost/docs/1.0.0').pathname).toBe('/docs/1.0.0/');
  });

  it.each(PAGES)(
    'resolves every switcher, changelog, llms.txt and download link of %s to a document the server serves',
    async (target) => {
      const base = `http://localhost${target}`;
      const links = pageLinks(await (await anonymous(target)).text());
      const resolved = (hrefs: string[]) => hrefs.map((href) => new URL(href, base).pathname).sort();

      expect(resolved(links.switcher)).toEqual(expect.arrayContaining(['/docs/1.0.0/index.html', '/docs/index.html']));
      expect(resolved(links.changelog)).toEqual(['/docs/changelog.html']);
      for (const link of [...resolved(links.switcher), ...resolved(links.changelog)]) {
        const response = await anonymous(link);
        expect(response.status, link).toBe(200);
        expect(response.headers.get('Content-Type'), link).toMatch(/^text\/html\b/);
      }
      for (const link of resolved(links.downloads)) expect((await anonymous(link)).status, link).toBe(200);
      // The edition's own docs for agents; the changelog's are the draft's.
      const [agents, ...others] = resolved(links.agents);
      expect(others).toEqual([]);
      expect(agents).toBe(new URL(LLMS_TXT, base.replace(/changelog\.html$/, '')).pathname);
      const answered = await anonymous(defined(agents, 'the llms.txt link'));
      expect(answered.status).toBe(200);
      expect(answered.headers.get('Content-Type')).toMatch(/^text\/plain\b/);
    },
  );

  it('serves the docs for agents as the pages are served: llms.txt as text, each page as Markdown, compressed, with an ETag and no-cache', async () => {
    const [operation] = loadContract().operations;
    for (const [target, type] of [
      [`/docs/${LLMS_TXT}`, 'text/plain; charset=utf-8'],
      [`/docs/${LLMS_FULL_TXT}`, 'text/plain; charset=utf-8'],
      [`/docs/operations/${defined(operation, 'an operation').operationId}.md`, 'text/markdown; charset=utf-8'],
    ] as const) {
      const plain = await anonymous(target, { headers: { 'Accept-Encoding': 'identity' } });
      expect(plain.status, target).toBe(200);
      expect(plain.headers.get('Content-Type'), target).toBe(type);
      expect(plain.headers.get('Cache-Control'), target).toBe('no-cache');
      const etag = defined(plain.headers.get('ETag'), `the ETag of ${target}`);
      const compressed = await anonymous(target, { headers: { 'Accept-Encoding': 'br' } });
      expect(compressed.headers.get('Content-Encoding'), target).toBe('br');
      expect((await anonymous(target, { headers: { 'If-None-Match': etag } })).status, target).toBe(304);
    }
  });

  it("serves the draft page's download links, /docs/openapi.json and /docs/openapi.yaml, identical to the bundles at the root", async () => {
    const page = await (await anonymous('/docs/')).text();
    const links = pageLinks(page).downloads.map((href) => new URL(href, 'http://localhost/docs/').pathname);

    expect(links.sort()).toEqual(['/docs/openapi.json', '/docs/openapi.yaml']);
    for (const link of links) {
      const [copy, bundle] = await Promise.all([anonymous(link), anonymous(link.replace('/docs/', '/'))]);
      expect(copy.status, link).toBe(200);
      expect(copy.headers.get('Content-Type'), link).toBe(bundle.headers.get('Content-Type'));
      expect(await copy.text(), link).toBe(await bundle.text());
    }
  });

  it("serves a release's download link next to its page: /docs/1.0.0/openapi.json is the released contract", async () => {
    const page = await (await anonymous('/docs/1.0.0/')).text();
    const links = pageLinks(page).downloads.map((href) => new URL(href, 'http://localhost/docs/1.0.0/').pathname);

    expect(links).toEqual(['/docs/1.0.0/openapi.json']);
    const response = await anonymous('/docs/1.0.0/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    expect(await response.text()).toBe(
      await readFile(path.join(DEFAULT_DOCS_FILES.dir, '1.0.0', 'openapi.json'), 'utf8'),
    );
  });

  it('answers a file dist/docs/ does not hold with a 404 Error body', async () => {
    const response = await anonymous('/docs/2.0.0/index.html');

    expect(response.status).toBe(404);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    expect(await response.json()).toMatchObject({ code: 'not_found', status: 404 });
  });

  it.each(DOCS_PATHS)('answers %s without a key and without rate-limit headers', async (target) => {
    const response = await anonymous(target);

    expect(response.status).toBe(200);
    for (const name of RATE_LIMIT_HEADERS) expect(response.headers.has(name), name).toBe(false);
  });

  it(`counts no docs request against the caller's window, even past the ${WITHOUT_KEY_PLAN} plan's minute limit`, async () => {
    const { perMinute } = WITHOUT_KEY_LIMITS;
    // More docs requests than a key-less caller's minute allows, fewer than the docs' own limit.
    for (let request = 0; request <= perMinute; request += 1) {
      const target = defined(DOCS_PATHS[request % DOCS_PATHS.length], 'a docs path');
      expect((await anonymous(target)).status).toBe(200);
    }

    const api = await anonymous('/v1/pets');

    expect(api.status).toBe(401);
    expect(api.headers.get('X-RateLimit-Limit')).toBe(String(perMinute));
    expect(api.headers.get('X-RateLimit-Remaining')).toBe(String(perMinute - 1));
  });

  it('limits docs requests per client address on their own, never touching the API window', async () => {
    for (let request = 0; request < DOCS_LIMITS.perMinute; request += 1)
      expect((await anonymous('/docs/changelog.html')).status).toBe(200);

    const limited = await anonymous('/docs/changelog.html');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    expect((await anonymous('/openapi.json')).status).toBe(429);
    testApp.setClientAddress('192.0.2.2');
    expect((await anonymous('/docs/changelog.html')).status).toBe(200);

    testApp.setClientAddress('192.0.2.1');
    const api = await anonymous('/v1/pets');
    expect(api.headers.get('X-RateLimit-Remaining')).toBe(String(WITHOUT_KEY_LIMITS.perMinute - 1));
    expect((await testApp.request('/v1/pets')).status).toBe(200);
  });

  it.each<[string, string, ((body: Buffer) => Buffer) | undefined]>([
    ['br', 'gzip, deflate, br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['gzip', 'br;q=0, gzip;q=0.5', gunzipSync],
    ['no encoding', 'identity', undefined],
  ])('serves the docs page as %s for Accept-Encoding %j, the same page once decoded', async (label, accept, decode) => {
    const page = await readFile(path.join(DEFAULT_DOCS_FILES.dir, 'index.html'));
    const response = await anonymous('/docs/', { headers: { 'Accept-Encoding': accept } });

    expect(response.status).toBe(200);
    expect(response.headers.get('Vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await response.arrayBuffer());
    if (decode === undefined) {
      expect(response.headers.has('Content-Encoding')).toBe(false);
      expect(body.equals(page)).toBe(true);
    } else {
      expect(response.headers.get('Content-Encoding')).toBe(accept.includes('br;q=0') ? 'gzip' : label);
      expect(body.length).toBeLessThan(page.length / 3);
      expect(decode(body).equals(page)).toBe(true);
    }
  });

  it.each([
    'index.html',
    '1.0.0/index.html',
    'changelog.html',
    'openapi.json',
    '1.0.0/openapi.json',
    LLMS_TXT,
    `1.0.0/${LLMS_FULL_TXT}`,
  ])('finds %s precompressed by npm run docs: brotli and gzip forms beside it that decode to it', async (file) => {
    const served = await readFile(path.join(DEFAULT_DOCS_FILES.dir, file));
    const br = await readFile(path.join(DEFAULT_DOCS_FILES.dir, `${file}.br`));
    const gz = await readFile(path.join(DEFAULT_DOCS_FILES.dir, `${file}.gz`));

    expect(brotliDecompressSync(br).equals(served)).toBe(true);
    expect(gunzipSync(gz).equals(served)).toBe(true);
  });

  it('answers 304 to an ETag of the page in any encoding, and a new ETag for each encoding', async () => {
    const tags = await Promise.all(
      ['br', 'gzip', 'identity'].map(async (accept) =>
        (await anonymous('/docs/', { headers: { 'Accept-Encoding': accept } })).headers.get('ETag'),
      ),
    );
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) {
      const again = await anonymous('/docs/', {
        headers: { 'If-None-Match': defined(tag, 'an ETag'), 'Accept-Encoding': 'br' },
      });
      expect(again.status).toBe(304);
    }
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
});

describe('docsRoutes', () => {
  let directory: string;
  let files: DocsFiles;
  let app: Hono;
  const page = (relative: string) => path.join(files.dir, relative);
  beforeEach(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'animal-store-docs-routes-'));
    files = { ...DEFAULT_DOCS_FILES, dir: path.join(directory, 'docs') };
    app = new Hono().route('/', docsRoutes(files));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  /** A published folder: the draft, release 1.0.0 and the changelog, and a secret next to the folder. */
  async function publish() {
    await mkdir(page('1.0.0'), { recursive: true });
    await writeFile(page('index.html'), '<!DOCTYPE html><title>draft</title>');
    await writeFile(page('1.0.0/index.html'), '<!DOCTYPE html><title>release 1.0.0</title>');
    await writeFile(page('1.0.0/openapi.json'), '{"openapi":"3.1.0"}');
    await writeFile(page('changelog.html'), '<!DOCTYPE html><title>changelog</title>');
    await writeFile(path.join(directory, 'secret.txt'), 'not for the web');
  }

  it('answers /docs/ with a 404 Error body saying to run `npm run docs` when the page was never built', async () => {
    for (const target of ['/docs/', '/docs/changelog.html']) {
      const response = await app.request(target);

      expect(response.status, target).toBe(404);
      expect(response.headers.get('Content-Type'), target).toMatch(/^application\/json\b/);
      const body = (await response.json()) as { code: string; message: string; status: number };
      expect(body, target).toMatchObject({ code: 'not_found', status: 404 });
      expect(body.message, target).toContain('npm run docs');
    }
  });

  it('serves the folder: the draft at /docs/, a release at /docs/1.0.0/, the changelog, each as HTML', async () => {
    await publish();

    for (const [target, title] of [
      ['/docs/', 'draft'],
      ['/docs/index.html', 'draft'],
      ['/docs/1.0.0/', 'release 1.0.0'],
      ['/docs/1.0.0/index.html', 'release 1.0.0'],
      ['/docs/changelog.html', 'changelog'],
    ] as const) {
      const response = await app.request(target);
      expect(response.status, target).toBe(200);
      expect(response.headers.get('Content-Type'), target).toBe('text/html; charset=utf-8');
      expect(response.headers.get('Cache-Control'), target).toBe('no-cache');
      expect(await response.text(), target).toContain(`<title>${title}</title>`);
    }
    const release = await app.request('/docs/1.0.0/openapi.json');
    expect(release.headers.get('Content-Type')).toMatch(/^application\/json\b/);
    expect(await release.text()).toBe('{"openapi":"3.1.0"}');
  });

  it('answers a missing file of a built folder with a 404 Error body naming it', async () => {
    await publish();

    for (const target of ['/docs/2.0.0/', '/docs/nothing.html', '/docs/1.0.0/nothing.html', '/docs/changelog.html/']) {
      const response = await app.request(target);

      expect(response.status, target).toBe(404);
      expect(await response.json(), target).toEqual({
        code: 'not_found',
        status: 404,
        message: `There is no documentation page at ${target}.`,
      });
    }
  });

  it('refuses any path that would leave the folder or name a hidden file', async () => {
    await publish();
    await writeFile(page('.hidden'), 'hidden');

    for (const target of [
      '/docs/%2e%2e/secret.txt',
      '/docs/..%2fsecret.txt',
      '/docs/%2e%2e%2fsecret.txt',
      '/docs/..%5csecret.txt',
      '/docs/1.0.0/..%5c..%5csecret.txt',
      '/docs/%5c..%5csecret.txt',
      '/docs/.hidden',
      '/docs/%2ehidden',
      '/docs//1.0.0/',
      '/docs/%00',
      '/docs/%E0%A4%A',
    ]) {
      const response = await app.request(target);
      const text = await response.text();

      expect(response.status, target).toBe(404);
      expect(text, target).not.toContain('not for the web');
      expect(text, target).not.toContain('hidden"');
    }
  });

  it('refuses `..` and backslashes sent as they are over HTTP', async () => {
    await publish();
    const server = await listen(app.fetch, '127.0.0.1', 0, { maxBodyBytes: loadContract().largestBodyBytes });
    try {
      for (const target of [
        '/docs/../secret.txt',
        '/docs/1.0.0/../../secret.txt',
        '/docs/..\\secret.txt',
        '/docs/\\..\\secret.txt',
        '/docs/%2e%2e/secret.txt',
        '/docs/..%2fsecret.txt',
      ]) {
        const { responses } = await converse(server.origin, [
          `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        ]);
        const response = defined(responses.at(-1), `an answer to ${target}`);

        expect(response.status, target).toBeGreaterThanOrEqual(400);
        expect(response.body, target).not.toContain('not for the web');
      }
    } finally {
      await server.close();
    }
  });

  it('serves the compressed form written beside a page after it, and compresses the page itself when that form is older', async () => {
    await mkdir(files.dir, { recursive: true });
    const html = '<!DOCTYPE html><title>page</title>';
    await writeFile(page('index.html.gz'), gzipSync('<!DOCTYPE html><title>from the older build</title>'));
    await writeFile(page('index.html'), html);
    // Its modification time, not the order of the writes, says which is newer.
    const past = new Date(Date.now() - 60_000);
    await utimes(page('index.html.gz'), past, past);
    const gzipped = async () =>
      gunzipSync(
        Buffer.from(await (await app.request('/docs/', { headers: { 'Accept-Encoding': 'gzip' } })).arrayBuffer()),
      ).toString();

    expect(await gzipped()).toBe(html);

    const app2 = new Hono().route('/', docsRoutes(files));
    await writeFile(page('index.html.gz'), gzipSync('<!DOCTYPE html><title>written by the build</title>'));
    const response = await app2.request('/docs/', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toContain('written by the build');
  });

  it('serves a page rebuilt while the server runs, under a new ETag', async () => {
    await mkdir(files.dir, { recursive: true });
    await writeFile(page('index.html'), '<!DOCTYPE html><title>first build</title>');
    const first = await app.request('/docs/');
    await writeFile(page('index.html'), '<!DOCTYPE html><title>second build</title>');

    const second = await app.request('/docs/', {
      headers: { 'If-None-Match': defined(first.headers.get('ETag'), 'the first ETag') },
    });

    expect(second.status).toBe(200);
    expect(await second.text()).toContain('second build');
    expect(second.headers.get('ETag')).not.toBe(first.headers.get('ETag'));
  });

  it('serves a release published while the server runs', async () => {
    await publish();
    expect((await app.request('/docs/1.1.0/')).status).toBe(404);

    await mkdir(page('1.1.0'));
    await writeFile(page('1.1.0/index.html'), '<!DOCTYPE html><title>release 1.1.0</title>');

    const response = await app.request('/docs/1.1.0/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('release 1.1.0');
  });
});
