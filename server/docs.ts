// The published docs at /docs and the bundled contract at /openapi.json and /openapi.yaml. They sit
// outside the API's base path and are no API operations: createApp mounts them before rate limiting
// and authentication, so they need no key and count against no window.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Context, Hono } from 'hono';
import { etag } from 'hono/etag';
import { errorBody } from './errors.ts';
import type { AppEnv } from './http-types.ts';

export interface DocsFiles {
  /** Built by `npm run docs` (and by `npm start` when missing or stale); may be rebuilt while the server runs. */
  page: string;
  openapiJson: string;
  openapiYaml: string;
}

const repositoryFile = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));

export const DEFAULT_DOCS_FILES: DocsFiles = {
  page: repositoryFile('dist/docs/index.html'),
  openapiJson: repositoryFile('generated/openapi.json'),
  openapiYaml: repositoryFile('generated/openapi.yaml'),
};

const NOT_BUILT_MESSAGE =
  'The documentation page has not been built on this server: run `npm run docs` (or restart with `npm start`, which builds it), then reload /docs.';

export function docsRoutes(files: DocsFiles = DEFAULT_DOCS_FILES): Hono<AppEnv> {
  // The bundle changes only with a new release of the server, like the contract it validates against.
  const openapiJson = readFileSync(files.openapiJson, 'utf8');
  const openapiYaml = readFileSync(files.openapiYaml, 'utf8');
  const routes = new Hono<AppEnv>();

  routes.get('/openapi.json', etag(), (c) => revalidated(c, openapiJson, 'application/json; charset=utf-8'));
  routes.get('/openapi.yaml', etag(), (c) => revalidated(c, openapiYaml, 'application/yaml; charset=utf-8'));
  routes.get('/docs', etag(), async (c) => {
    const page = await readFile(files.page, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (page === undefined) return c.json(errorBody(404, 'not_found', NOT_BUILT_MESSAGE), 404);
    return revalidated(c, page, 'text/html; charset=utf-8');
  });
  // The page's download links are relative to /docs; from /docs/ they would miss the bundles.
  routes.get('/docs/', (c) => c.redirect('../docs', 308));
  return routes;
}

/** Caches may keep a copy but must check its ETag first, so a rebuilt page or a new release shows at once. */
function revalidated(c: Context<AppEnv>, body: string, contentType: string): Response {
  return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache' });
}
