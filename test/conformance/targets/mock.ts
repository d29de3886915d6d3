import type { TestProject } from 'vitest/node';
import { startMock } from '../../../mock/node/server.ts';

/** Prism checks that a bearer token is present, not which: any token stands for a key. */
const MOCK_KEY = 'ask_mockmockmockmockmockmockmockmockmockmockmo';

/** The `mock` target: Prism serving the contract's examples, error statuses chosen with `Prefer`. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mock = await startMock();
  const endpoint = { baseUrl: `${mock.url}/v1`, apiKey: MOCK_KEY };
  project.provide('target', {
    name: 'mock',
    ...endpoint,
    freePlanKeys: [`${MOCK_KEY}1`, `${MOCK_KEY}2`],
    afterSunset: endpoint,
    storageDown: endpoint,
    internalFailure: endpoint,
    capabilities: { enforcesRateLimits: false, stateful: false, preferHeader: true, validatedByProxy: false },
  });
  return mock.close;
}
