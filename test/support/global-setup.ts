// vitest's globalSetup for every project (vitest.config.ts): the shared builds (shared-builds.ts)
// and the run's one Chromium (chromium.ts). vitest runs a root globalSetup once for each project,
// one after another, in one process, loading this module anew each time: the first call builds and
// starts, the others get the same, and only the first returns the teardown that removes them.
import type { TestProject } from 'vitest/node';
import { startChromium } from './chromium.ts';
import { sharedBuilds } from './shared-builds.ts';

const process_ = globalThis as {
  animalStoreTeardownTaken?: boolean;
  animalStoreChromium?: ReturnType<typeof startChromium>;
};

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  process_.animalStoreChromium ??= startChromium();
  const [{ builds, remove }, chromium] = await Promise.all([sharedBuilds(), process_.animalStoreChromium]);
  project.provide('sharedBuilds', builds);
  project.provide('chromiumEndpoint', chromium?.wsEndpoint());
  if (process_.animalStoreTeardownTaken) return undefined;
  process_.animalStoreTeardownTaken = true;
  return async () => {
    await Promise.all([remove(), chromium?.close()]);
  };
}
