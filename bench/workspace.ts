// A throw-away copy of the repository for the edit-loop figures: `npm run generate`, the watch
// loop and the mock's reloads write generated/ and the bench edits openapi/, so none of it may
// touch the real tree (other work goes on in it). node_modules is linked, not copied.
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What generate and the mocks read: the contract, its tools, and the server code the mocks run. */
const ENTRIES = ['openapi', 'redocly.yaml', 'scripts', 'contract', 'package.json', 'generated', 'mock', 'server'];

export interface Workspace {
  root: string;
  remove(): Promise<void>;
}

export async function createWorkspace(): Promise<Workspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'animal-store-bench-'));
  try {
    for (const entry of ENTRIES) await cp(path.join(REPO_ROOT, entry), path.join(root, entry), { recursive: true });
    await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
