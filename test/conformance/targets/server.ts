import type { TestProject } from 'vitest/node';
import { startRealServers } from './real-servers.ts';

/** The `server` target: the real service on free ports of 127.0.0.1. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await startRealServers();
  project.provide('target', {
    name: 'server',
    baseUrl: `${servers.main.origin}/v1`,
    apiKey: servers.main.apiKey,
    freePlanKeys: servers.main.freePlanKeys,
    afterSunset: { baseUrl: `${servers.afterSunset.origin}/v1`, apiKey: servers.afterSunset.apiKey },
    storageDown: { baseUrl: `${servers.storageDown.origin}/v1`, apiKey: servers.storageDown.apiKey },
    internalFailure: { baseUrl: `${servers.internalFailure.origin}/v1`, apiKey: servers.internalFailure.apiKey },
    capabilities: { enforcesRateLimits: true, stateful: true, preferHeader: false, validatedByProxy: false },
  });
  return servers.close;
}
