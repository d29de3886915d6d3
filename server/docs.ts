// The published docs folder (dist/docs/) under /docs/, and the bundled contract at /openapi.json and
// /openapi.yaml. They sit outside the API's base path and are no API operations: createApp mounts them
// before rate limiting and authentication, so they need no key and count against no window.
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Context, Hono } from 'hono';
import { etag } from 'hono/etag';
import { errorBody } from '../core/errors.ts';
import type { AppEnv } from '../core/http-types.ts';

export interface DocsFiles {
  /**
   * The folder `npm run docs` publishes (and `npm start` builds when missing or stale): the draft's
   * `index.html`, a folder per release, `changelog.html`. It may be rebuilt while the server runs.
   */
  dir: string;
  openapiJson: string;
  openapiYaml: string;
}

/** The repository this module belongs to: the nearest folder above it with a package.json (from server/ as source, or from dist/runtime/server/ compiled). */
function repositoryRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}.`);
    folder = parent;
  }
  return folder;
}

const repositoryFile = (relative: string) => path.join(repositoryRoot(), relative);

export const DEFAULT_DOCS_FILES: DocsFiles = {
  dir: repositoryFile('dist/docs'),
  openapiJson: repositoryFile('generated/openapi.json'),
  openapiYaml: repositoryFile('generated/openapi.yaml'),
};

const NOT_BUILT_MESSAGE =
  'The documentation page has not been built on this server: run `npm run docs` (or restart with `npm start`, which builds it), then reload /docs/.';

const JSON_TYPE = 'application/json; charset=utf-8';
const YAML_TYPE = 'application/yaml; charset=utf-8';
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': JSON_TYPE,
  '.yaml': YAML_TYPE,
  '.png': 'image/png',
};

export function docsRoutes(files: DocsFiles = DEFAULT_DOCS_FILES): Hono<AppEnv> {
  // The bundle changes only with a new release of the server, like the contract it validates against.
  const openapiJson = readFileSync(files.openapiJson, 'utf8');
  const openapiYaml = readFileSync(files.openapiYaml, 'utf8');
  const json = (c: Context<AppEnv>) => revalidated(c, openapiJson, JSON_TYPE);
  const yaml = (c: Context<AppEnv>) => revalidated(c, openapiYaml, YAML_TYPE);
  const routes = new Hono<AppEnv>();

  routes.get('/openapi.json', etag(), json);
  routes.get('/openapi.yaml', etag(), yaml);
  // Every page's links are relative to its folder: the draft's must be asked for as /docs/.
  routes.get('/docs', (c) => c.redirect('docs/', 308));
  // The draft's download copies are the very bundle served at the root, whatever dist/docs/ holds.
  routes.get('/docs/openapi.json', etag(), json);
  routes.get('/docs/openapi.yaml', etag(), yaml);
  routes.get('/docs/*', etag(), async (c) => {
    const segments = docsSegments(c.req.url);
    const found = segments && (await findFile(files.dir, segments));
    if (found === 'directory') return c.redirect(`${encodeURIComponent(segments?.at(-1) ?? '')}/`, 308);
    if (!found) {
      const built = await isFile(path.join(files.dir, 'index.html'));
      const message = built ? `There is no documentation page at ${c.req.path}.` : NOT_BUILT_MESSAGE;
      return c.json(errorBody(404, 'not_found', message), 404);
    }
    const body = await readFile(found);
    const contentType = CONTENT_TYPES[path.extname(found).toLowerCase()] ?? 'application/octet-stream';
    return revalidated(c, new Uint8Array(body), contentType);
  });
  return routes;
}

/**
 * The path under /docs/ as folder and file names, or undefined when it could leave the folder or
 * names a hidden file: any `.` or `..` segment, a slash or a backslash encoded into a name, a NUL,
 * an empty segment (`//`), a name starting with a dot. A final empty segment asks for a folder.
 */
function docsSegments(url: string): string[] | undefined {
  const rawPath = new URL(url).pathname;
  if (!rawPath.startsWith('/docs/')) return undefined;
  const segments: string[] = [];
  const raw = rawPath.slice('/docs/'.length).split('/');
  for (const [index, part] of raw.entries()) {
    let name: string;
    try {
      name = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (name === '' && index === raw.length - 1) {
      segments.push('');
      continue;
    }
    if (name === '' || name.startsWith('.') || /[/\\\0]/.test(name)) return undefined;
    segments.push(name);
  }
  return segments;
}

/** The file to answer with (a folder's `index.html`), 'directory' for a folder asked without its slash. */
async function findFile(dir: string, segments: string[]): Promise<string | 'directory' | undefined> {
  const root = path.resolve(dir);
  const target = path.resolve(root, ...segments);
  const relative = path.relative(root, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const stats = await stat(target).catch(() => undefined);
  if (stats?.isFile()) return segments.at(-1) === '' ? undefined : target;
  if (!stats?.isDirectory()) return undefined;
  if (segments.at(-1) !== '') return 'directory';
  const index = path.join(target, 'index.html');
  return (await isFile(index)) ? index : undefined;
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/** Caches may keep a copy but must check its ETag first, so a rebuilt page or a new release shows at once. */
function revalidated(c: Context<AppEnv>, body: string | Uint8Array<ArrayBuffer>, contentType: string): Response {
  return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache' });
}
