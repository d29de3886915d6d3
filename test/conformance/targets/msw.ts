import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';
import { installedPackage, type SharedBuilds, sharedBuilds } from '../../support/shared-builds.ts';

/** The static mock takes any bearer token as a key. */
const MOCK_KEY = 'ask_mswmswmswmswmswmswmswmswmswmswmswmswmswmsw';

/**
 * The client package's MSW handlers (stateful), as installed from its tarball (the run's shared
 * builds), under msw/node in a process of their own that serves them over HTTP at `origin`.
 */
export async function startMswBridge(builds: SharedBuilds): Promise<{ origin: string; close(): Promise<void> }> {
  const bridge = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'msw-bridge.ts'),
      path.join(installedPackage(builds), 'dist', 'msw.js'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const close = async () => {
    if (bridge.exitCode === null) {
      bridge.kill();
      await once(bridge, 'exit');
    }
  };
  const [origin] = await Promise.race([
    once(createInterface({ input: bridge.stdout }), 'line') as Promise<[string]>,
    once(bridge, 'exit').then(([code]) => {
      throw new Error(`The MSW bridge exited with ${code} before it listened.`);
    }),
  ]).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { origin, close };
}

/**
 * The `msw` target: the bridge to the package's MSW handlers. Like the static mock, they answer
 * `Prefer: code=...` with the contract's declared answer, and never refuse a key over its limit.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { origin, close } = await startMswBridge((await sharedBuilds()).builds);
  const endpoint = { baseUrl: `${origin}/v1`, apiKey: MOCK_KEY };
  project.provide('target', {
    name: 'msw',
    ...endpoint,
    freePlanKeys: [`${MOCK_KEY}1`, `${MOCK_KEY}2`],
    afterSunset: endpoint,
    storageDown: endpoint,
    internalFailure: endpoint,
    capabilities: { enforcesRateLimits: false, stateful: true, preferHeader: true, validatedByProxy: false },
  });
  return close;
}
