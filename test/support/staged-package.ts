// The client package's JavaScript as a project's node_modules holds it, built from this checkout
// into a temporary folder, beside the msw and openapi-fetch of this repository (linked, not installed).
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildClient, CLIENT_DIR } from '../../scripts/client/build.ts';

const REPO_MODULES = path.join(CLIENT_DIR, '..', 'node_modules');

export interface StagedPackage {
  /** The folder whose node_modules holds the package; a page or script there imports it by name. */
  root: string;
  /** The package's own folder, `<root>/node_modules/@animal-store/client`. */
  packageDir: string;
  remove(): Promise<void>;
}

export async function stagePackage(): Promise<StagedPackage> {
  const root = await mkdtemp(path.join(tmpdir(), 'animal-store-client-'));
  const packageDir = path.join(root, 'node_modules', '@animal-store', 'client');
  await mkdir(packageDir, { recursive: true });
  await copyFile(path.join(CLIENT_DIR, 'package.json'), path.join(packageDir, 'package.json'));
  // Its users run it; the consumer test, which type-checks against it, installs the packed tarball.
  await buildClient(path.join(packageDir, 'dist'), { declarations: false });
  for (const dependency of ['msw', 'openapi-fetch'])
    await symlink(path.join(REPO_MODULES, dependency), path.join(root, 'node_modules', dependency), 'dir');
  return { root, packageDir, remove: () => rm(root, { recursive: true, force: true }) };
}
