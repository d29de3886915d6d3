// Where the docs live and whether they still match generated/. Kept free of the pipeline's heavy
// imports (Redocly, openapi-typescript), so `npm start` and `npm run docs:serve` decide in a few
// milliseconds that there is nothing to build.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PRECOMPRESSED_SUFFIX } from '../../node/http/compression.ts';
import type { ContractLocations } from '../pipeline/locations.ts';
import { listReleases, RELEASED_CONTRACT } from '../release/release-files.ts';
import { CHANGELOG_PAGE } from './editions.ts';
import { LLMS_TXT } from './markdown-pages.ts';

export interface DocsLocations {
  dir: string;
  page: string;
  /** The bundled contract in generated/, each with its download copy next to the page. */
  bundles: ReadonlyArray<{ name: string; source: string; copy: string }>;
}

export type DocsStatus = { state: 'current' } | { state: 'missing' | 'stale'; reason: string };

const BUNDLE_NAMES = ['openapi.yaml', 'openapi.json'];

/** MSW's service worker, next to the draft's page, where its console registers it (console/assets.ts). */
export const SERVICE_WORKER = 'mockServiceWorker.js';

export function docsLocations(locations: ContractLocations): DocsLocations {
  const dir = path.join(locations.root, 'dist', 'docs');
  return {
    dir,
    page: path.join(dir, 'index.html'),
    bundles: BUNDLE_NAMES.map((name) => ({
      name,
      source: path.join(locations.outDir, name),
      copy: path.join(dir, name),
    })),
  };
}

/**
 * The docs are current when the draft's page has its compressed forms, is no older than the bundles in generated/ and its
 * download copies equal them, the docs for agents are there (`llms.txt`), every release has its page, and the changelog page is no older
 * than CHANGELOG.md. The age check catches a build that stopped after copying the bundles; the content
 * check catches a generated/ restored with old modification times.
 */
export async function docsStatus(locations: ContractLocations): Promise<DocsStatus> {
  const docs = docsLocations(locations);
  const page = await stat(docs.page).catch(() => undefined);
  if (!page) return { state: 'missing', reason: 'dist/docs/index.html does not exist' };
  for (const suffix of Object.values(PRECOMPRESSED_SUFFIX)) {
    const compressed = await stat(`${docs.page}${suffix}`).catch(() => undefined);
    // Written right after the page; one older than it belongs to an earlier build.
    if (!compressed || compressed.mtimeMs < page.mtimeMs)
      return {
        state: 'stale',
        reason: `dist/docs/index.html${suffix}, its compressed form, is missing or older than it`,
      };
  }
  for (const bundle of docs.bundles) {
    const source = await stat(bundle.source);
    if (source.mtimeMs > page.mtimeMs)
      return { state: 'stale', reason: `dist/docs/index.html is older than generated/${bundle.name}` };
    const [expected, copied] = await Promise.all([
      readFile(bundle.source),
      readFile(bundle.copy).catch(() => undefined),
    ]);
    if (!copied?.equals(expected))
      return { state: 'stale', reason: `dist/docs/${bundle.name} differs from generated/${bundle.name}` };
  }
  if (!(await stat(path.join(docs.dir, SERVICE_WORKER)).catch(() => undefined)))
    return { state: 'stale', reason: `dist/docs/ lacks the console's ${SERVICE_WORKER}` };
  if (!(await stat(path.join(docs.dir, LLMS_TXT)).catch(() => undefined)))
    return { state: 'stale', reason: `dist/docs/ lacks ${LLMS_TXT}, the docs for agents` };
  for (const release of await listReleases(locations)) {
    const [expected, copied] = await Promise.all([
      readFile(release.file),
      readFile(path.join(docs.dir, release.name, RELEASED_CONTRACT)).catch(() => undefined),
    ]);
    if (!copied?.equals(expected))
      return { state: 'stale', reason: `dist/docs/ lacks the page of release ${release.name}` };
  }
  const changelog = await stat(path.join(locations.root, 'CHANGELOG.md')).catch(() => undefined);
  const changelogPage = await stat(path.join(docs.dir, CHANGELOG_PAGE)).catch(() => undefined);
  if (changelog && (!changelogPage || changelog.mtimeMs > changelogPage.mtimeMs))
    return { state: 'stale', reason: `dist/docs/${CHANGELOG_PAGE} is older than CHANGELOG.md` };
  return { state: 'current' };
}
