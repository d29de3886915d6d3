// What many test files need built, built once per vitest run before any of them starts (vitest's
// globalSetup, test/support/global-setup.ts): the compiled server that `npm start`, `npm run keys`
// and `npm run db:*` run, the docs `npm start` serves, and the client package as `npm pack ./client`
// makes it, installed into a project beside msw as a consumer installs it. Built once, they are
// neither paid for again by each file nor raced for by files running at once.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDocs } from '../../scripts/docs/ensure.ts';
import { contractLocations } from '../../scripts/pipeline/locations.ts';
import { buildRuntime, runtimeIsStale } from '../../scripts/runtime/build.mjs';
import { REPOSITORY_ROOT } from '../../support/repository-copy.ts';

const run = promisify(execFile);

export interface SharedBuilds {
  /** `npm pack ./client`'s tarball. */
  tarball: string;
  /** A project with the tarball and this repository's msw installed: `<consumer>/node_modules/@animal-store/client`. */
  consumer: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedBuilds: SharedBuilds;
  }
}

const process_ = globalThis as { animalStoreSharedBuilds?: ReturnType<typeof buildShared> };

/**
 * The shared builds, made by the first call of this vitest process (the global setup's) and
 * awaited by every later one; with the removal of what they left in the temporary folder.
 */
export function sharedBuilds(): ReturnType<typeof buildShared> {
  process_.animalStoreSharedBuilds ??= buildShared();
  return process_.animalStoreSharedBuilds;
}

/** The package as a consumer's node_modules holds it, in the shared consumer project. */
export function installedPackage({ consumer }: SharedBuilds): string {
  return path.join(consumer, 'node_modules', '@animal-store', 'client');
}

/** Builds everything, at once; resolves with where the package and its consumer are, and how to remove them. */
async function buildShared(): Promise<{ builds: SharedBuilds; remove(): Promise<void> }> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'animal-store-shared-'));
  try {
    const [builds] = await Promise.all([installPackage(workDir), buildRuntimeIfStale(), buildDocsIfStale()]);
    return { builds, remove: () => rm(workDir, { recursive: true, force: true }) };
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

async function buildRuntimeIfStale(): Promise<void> {
  if (await runtimeIsStale()) await buildRuntime();
}

async function buildDocsIfStale(): Promise<void> {
  const ensured = await ensureDocs(contractLocations(REPOSITORY_ROOT), () => {});
  if (ensured.outcome === 'failed') throw new Error(ensured.problem);
}

/** Packs client/ as a release does (its prepack builds it) and installs the tarball with msw, offline. */
async function installPackage(workDir: string): Promise<SharedBuilds> {
  const { stdout } = await run('npm', ['pack', './client', '--pack-destination', workDir, '--json'], {
    cwd: REPOSITORY_ROOT,
  });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack reported nothing: ${stdout}`);
  const tarball = path.join(workDir, packed.filename);
  const consumer = path.join(workDir, 'consumer');
  await mkdir(consumer);
  await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  const msw = JSON.parse(await readFile(path.join(REPOSITORY_ROOT, 'node_modules', 'msw', 'package.json'), 'utf8'));
  // From npm's cache: this repository's install put every one of these packages there.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `msw@${msw.version}`], {
    cwd: consumer,
  });
  return { tarball, consumer };
}
