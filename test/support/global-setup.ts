// vitest's globalSetup for every project (vitest.config.ts): the shared builds (shared-builds.ts).
// vitest runs a root globalSetup once for each project, one after another, in one process, loading
// this module anew each time: the first call builds, the others get the same builds, and only the
// first returns the teardown that removes them.
import type { TestProject } from 'vitest/node';
import { sharedBuilds } from './shared-builds.ts';

const process_ = globalThis as { animalStoreTeardownTaken?: boolean };

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const { builds, remove } = await sharedBuilds();
  project.provide('sharedBuilds', builds);
  if (process_.animalStoreTeardownTaken) return undefined;
  process_.animalStoreTeardownTaken = true;
  return remove;
}
