// A throw-away copy of the repository for the edit-loop figures: `npm run generate`, the watch
// loop and the mock's reloads write generated/ and the bench edits openapi/, so none of it may
// touch the real tree (other work goes on in it).
import { copyRepository, type RepositoryCopy } from '../support/repository-copy.ts';

/** What generate and the mocks read: the contract, its tools, the app core and the server code the mocks run. */
const ENTRIES = [
  'openapi',
  'redocly.yaml',
  'scripts',
  'contract',
  'core',
  'node',
  'package.json',
  'generated',
  'mock',
  'server',
];

export type Workspace = RepositoryCopy;

export function createWorkspace(): Promise<Workspace> {
  return copyRepository(ENTRIES, 'animal-store-bench-');
}
