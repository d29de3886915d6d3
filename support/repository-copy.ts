// A throw-away copy of parts of this repository, for what must write generated/ or edit openapi/
// without touching the real tree. node_modules is linked, not copied.
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RepositoryCopy {
  root: string;
  remove(): Promise<void>;
}

/** Copies `entries` (files or folders at the repository's root) into a new folder named after `prefix`. */
export async function copyRepository(entries: readonly string[], prefix: string): Promise<RepositoryCopy> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    for (const entry of entries)
      await cp(path.join(REPOSITORY_ROOT, entry), path.join(root, entry), { recursive: true });
    await symlink(path.join(REPOSITORY_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  } catch (error) {
    await remove();
    throw error;
  }
  return { root, remove };
}
