// The published docs folder (dist/docs/) under /docs/, and the bundled contract at /openapi.json and
// /openapi.yaml. They sit outside the API's base path and are no API operations: createApp mounts them
// before rate limiting and authentication, so they need no key and count against no window of the
// API; they have a per-address limit of their own. A docs page is megabytes: each file is read,
// compressed and hashed once per version and every answer shares those buffers, so memory stays
// bounded however many are downloaded at once.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { type ApiError, errors } from '../../core/errors.ts';
import type { AppContext, AppEnv } from '../../core/http-types.ts';
import type { RateLimiter, WindowLimits } from '../../core/limiter/rate-limiter.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../generated/rules.ts';
import {
  compress,
  DOCS_BUILDING_MARKER,
  type Encoding,
  isCompressible,
  PRECOMPRESSED_SUFFIX,
} from '../../node/http/compression.ts';

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

const JSON_TYPE = 'application/json; charset=utf-8';
const YAML_TYPE = 'application/yaml; charset=utf-8';
/** Where Hono's table of types (which serveStatic uses) says nothing or no charset: the pages for agents are Markdown (RFC 7763). */
const OWN_TYPES: Record<string, string> = {
  '.json': JSON_TYPE,
  '.yaml': YAML_TYPE,
  '.md': 'text/markdown; charset=utf-8',
};

/**
 * A docs file's type, by its extension: the answers carry `nosniff`, so a browser takes the type
 * as given, and runs the console's service worker (`mockServiceWorker.js`) only as JavaScript.
 */
function contentTypeOf(file: string): string {
  return OWN_TYPES[path.extname(file).toLowerCase()] ?? getMimeType(file) ?? 'application/octet-stream';
}

/** Text gains from compression; images (but SVG) and compressed files do not. */
function isText(contentType: string): boolean {
  return /^(text\/|application\/(json|yaml|javascript)\b|[^;]*\+(xml|json)\b)/.test(contentType);
}

/** Per client address, apart from the API's windows: enough to browse every edition and download the bundles often. */
export const DOCS_LIMITS: WindowLimits = { perMinute: 300, perDay: 20_000 };

export interface DocsLimit {
  /** Counts docs requests by address; its own limiter, so docs traffic cannot use up an API window. */
  limiter: RateLimiter;
  clientAddress: (c: AppContext) => string;
}

export function docsRoutes(files: DocsFiles = DEFAULT_DOCS_FILES, limit?: DocsLimit): Hono<AppEnv> {
  // The bundle changes only with a new release of the server, like the contract it validates against.
  const openapiJson = prepare(readFileSync(files.openapiJson), JSON_TYPE);
  const openapiYaml = prepare(readFileSync(files.openapiYaml), YAML_TYPE);
  const json = async (c: Context<AppEnv>) => answer(c, await openapiJson);
  const yaml = async (c: Context<AppEnv>) => answer(c, await openapiYaml);
  const pages = preparedFiles();
  // Each route names it: a `use('*')` here would reach every path of the app this is mounted on.
  const limited: MiddlewareHandler<AppEnv> = limit ? limitPerAddress(limit) : (_c, next) => next();
  const routes = new Hono<AppEnv>();

  routes.get('/openapi.json', limited, json);
  routes.get('/openapi.yaml', limited, yaml);
  // Every page's links are relative to its folder: the draft's must be asked for as /docs/.
  routes.get('/docs', limited, (c) => c.redirect('docs/', 308));
  // The draft's download copies are the very bundle served at the root, whatever dist/docs/ holds.
  routes.get('/docs/openapi.json', limited, json);
  routes.get('/docs/openapi.yaml', limited, yaml);
  routes.get('/docs/*', limited, async (c) => {
    const segments = docsSegments(c.req.url);
    const found = segments && (await findFile(files.dir, segments));
    if (found === 'directory') return c.redirect(`${encodeURIComponent(segments?.at(-1) ?? '')}/`, 308);
    if (!found) {
      const built = await isFile(path.join(files.dir, 'index.html'));
      if (!built && (await beingBuilt(files.dir))) {
        return refuse(c, errors.docsBeingBuilt(UNAVAILABLE_RETRY_AFTER_SECONDS));
      }
      return refuse(c, built ? errors.docsPageNotFound(c.req.path) : errors.docsNotBuilt());
    }
    const served = await pages(found);
    return served ? answer(c, served) : refuse(c, errors.docsPageNotFound(c.req.path));
  });
  return routes;
}

/** The docs' refusals are answers of the routes themselves, wherever they are mounted. */
function refuse(c: Context<AppEnv>, { body, status, headers }: ApiError): Response {
  return c.json(body, status, headers);
}

function limitPerAddress({ limiter, clientAddress }: DocsLimit): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const decision = await limiter.hit(clientAddress(c), DOCS_LIMITS);
    if (decision.outcome === 'allowed') return next();
    const retryAfter = decision.retryAfter ?? 1;
    throw decision.outcome === 'key_banned'
      ? errors.docsBanned(retryAfter)
      : errors.docsRateLimited(DOCS_LIMITS, retryAfter);
  };
}

interface Representation {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** A file as answered: its bytes, and for text its compressed forms, each with a strong ETag. */
interface Prepared {
  contentType: string;
  /** Headers of this file beyond those of every docs answer: a page's Content-Security-Policy. */
  headers: Record<string, string>;
  identity: Representation;
  encoded: Partial<Record<Encoding, Representation>>;
}

/**
 * A file as answered, its compressed forms taken from `precompressed` (written by `npm run docs`)
 * or else compressed here, once per version of the file.
 */
async function prepare(
  content: Buffer,
  contentType: string,
  precompressed: Partial<Record<Encoding, Buffer>> = {},
): Promise<Prepared> {
  const tag = createHash('sha256').update(content).digest('base64url').slice(0, 32);
  const representation = (body: Buffer, suffix = ''): Representation => ({
    body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength),
    etag: `"${tag}${suffix}"`,
  });
  const encoded: Prepared['encoded'] = {};
  if (isText(contentType)) {
    const [br, gz] = await Promise.all([
      precompressed.br ?? compress.br(content),
      precompressed.gzip ?? compress.gzip(content),
    ]);
    encoded.br = representation(br, '-br');
    encoded.gzip = representation(gz, '-gzip');
  }
  const headers = contentType.startsWith('text/html') ? pageHeaders(content.toString('utf8')) : {};
  return { contentType, headers, identity: representation(content), encoded };
}

/**
 * A page runs only the scripts it was built with: its inline scripts and event handlers (the
 * version switcher's `onchange`) by hash, nothing loaded from elsewhere. Redoc adds its styles at
 * run time (so inline styles are allowed), shows data: images and runs its search in a blob: worker.
 * The Try it console validates requests as the mock does, with validators Ajv compiles from the
 * contract's schemas (`unsafe-eval`); it runs the mock in a service worker next to the page and sends
 * to the page's own mock origin or to the server the reader names, wherever that is. No other site
 * may frame it.
 */
function pageHeaders(html: string): Record<string, string> {
  const hashes = inlineScripts(html).map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
  const policy = [
    "default-src 'none'",
    `script-src 'unsafe-hashes' 'unsafe-eval' ${[...new Set(hashes)].join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' blob: https: http:",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY' };
}

/**
 * The code of each inline `<script>` (up to its first `</script>`, as the HTML parser reads it) and
 * of each event handler attribute of the markup outside them.
 */
function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  let markup = '';
  let at = 0;
  // Not indexOf on a lower-cased copy: lower-casing changes the length of some characters.
  const closing = /<\/script/gi;
  const opening = /<script\b[^>]*>/gi;
  for (let match = opening.exec(html); match !== null; match = opening.exec(html)) {
    const start = match.index + match[0].length;
    closing.lastIndex = start;
    const end = closing.exec(html)?.index ?? -1;
    markup += html.slice(at, match.index);
    if (!/\bsrc\s*=/i.test(match[0])) scripts.push(html.slice(start, end === -1 ? html.length : end));
    at = end === -1 ? html.length : end;
    opening.lastIndex = at;
  }
  markup += html.slice(at);
  for (const handler of markup.matchAll(/\son[a-z]+\s*=\s*"([^"]*)"/gi)) scripts.push(decodeEntities(handler[1] ?? ''));
  return scripts;
}

/** An attribute's value as the browser hashes it: with its character references decoded. */
function decodeEntities(value: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (reference, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return named[name.toLowerCase()] ?? reference;
  });
}

/**
 * The files of dist/docs/ as prepared, each kept for its current version only: a page rebuilt
 * while the server runs is read and compressed again, and concurrent first requests share one
 * preparation. Only files that exist get an entry, so the cache is as bounded as the folder.
 */
function preparedFiles(): (file: string) => Promise<Prepared | undefined> {
  const cache = new Map<string, { version: string; prepared: Promise<Prepared | undefined> }>();
  return async (file) => {
    const stats = await stat(file).catch(() => undefined);
    if (!stats?.isFile()) return undefined;
    const version = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    const cached = cache.get(file);
    if (cached?.version === version) return cached.prepared;
    const contentType = contentTypeOf(file);
    const prepared = Promise.all([readFile(file), precompressedBeside(file, stats.mtimeMs)]).then(
      ([content, precompressed]) => prepare(content, contentType, precompressed),
      () => undefined,
    );
    cache.set(file, { version, prepared });
    return prepared;
  };
}

/** The compressed forms `npm run docs` wrote beside `file`, those written no earlier than it. */
async function precompressedBeside(file: string, writtenMs: number): Promise<Partial<Record<Encoding, Buffer>>> {
  const found: Partial<Record<Encoding, Buffer>> = {};
  if (!isCompressible(file)) return found;
  for (const encoding of Object.keys(PRECOMPRESSED_SUFFIX) as Encoding[]) {
    const beside = `${file}${PRECOMPRESSED_SUFFIX[encoding]}`;
    const stats = await stat(beside).catch(() => undefined);
    if (stats?.isFile() && stats.mtimeMs >= writtenMs) found[encoding] = await readFile(beside);
  }
  return found;
}

/** The encodings the client accepts (RFC 9110 `Accept-Encoding`), best first among those offered. */
function acceptedEncoding(header: string | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (encoding: Encoding) => accepted.get(encoding) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  return weight('gzip') > 0 ? 'gzip' : undefined;
}

/** Whether `If-None-Match` names any representation of the file (weak comparison, RFC 9110 13.1.2). */
function notModified(ifNoneMatch: string | undefined, prepared: Prepared): boolean {
  if (ifNoneMatch === undefined) return false;
  const tags = new Set([prepared.identity, ...Object.values(prepared.encoded)].map(({ etag }) => etag));
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tags.has(tag));
}

/** Caches may keep a copy but must check its ETag first, so a rebuilt page or a new release shows at once. */
function answer(c: Context<AppEnv>, prepared: Prepared): Response {
  const encoding = acceptedEncoding(c.req.header('Accept-Encoding'));
  const chosen = (encoding && prepared.encoded[encoding]) || prepared.identity;
  const headers: Record<string, string> = {
    ...prepared.headers,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ETag: chosen.etag,
    Vary: 'Accept-Encoding',
  };
  if (notModified(c.req.header('If-None-Match'), prepared)) return c.body(null, 304, headers);
  if (chosen !== prepared.identity && encoding) headers['Content-Encoding'] = encoding;
  // Stated here, so that a HEAD (answered by this GET) says it without copying the file.
  headers['Content-Length'] = String(chosen.body.byteLength);
  return c.body(chosen.body, 200, { ...headers, 'Content-Type': prepared.contentType });
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

/** Whether the process named by the folder's building marker (scripts/docs/start.ts) is still at work. */
async function beingBuilt(dir: string): Promise<boolean> {
  const pid = Number(await readFile(path.join(dir, DOCS_BUILDING_MARKER), 'utf8').catch(() => ''));
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}
