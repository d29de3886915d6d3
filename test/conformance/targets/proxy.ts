import type { TestProject } from 'vitest/node';
import { startValidatingProxy } from '../../../mock/node/validating-proxy.ts';
import { startRealServers } from './real-servers.ts';

/**
 * The `proxy` target: the real service behind `prism proxy --errors`, so that Prism validates
 * every answer against the contract; the sunset and failing-storage servers get proxies of their own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await startRealServers();
  const upstreams = [servers.main, servers.afterSunset, servers.storageDown, servers.internalFailure];
  const proxies = await Promise.allSettled(
    upstreams.map((server) => startValidatingProxy({ upstream: server.origin })),
  );
  const close = async () => {
    await Promise.all(proxies.map((proxy) => (proxy.status === 'fulfilled' ? proxy.value.close() : undefined)));
    await servers.close();
  };
  const failed = proxies.find((proxy) => proxy.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  const [main, afterSunset, storageDown, internalFailure] = proxies.map(
    (proxy) => (proxy as PromiseFulfilledResult<{ url: string }>).value.url,
  );
  project.provide('target', {
    name: 'proxy',
    baseUrl: `${main}/v1`,
    apiKey: servers.main.apiKey,
    freePlanKeys: servers.main.freePlanKeys,
    afterSunset: { baseUrl: `${afterSunset}/v1`, apiKey: servers.afterSunset.apiKey },
    storageDown: { baseUrl: `${storageDown}/v1`, apiKey: servers.storageDown.apiKey },
    internalFailure: { baseUrl: `${internalFailure}/v1`, apiKey: servers.internalFailure.apiKey },
    capabilities: { enforcesRateLimits: true, stateful: true, preferHeader: false, validatedByProxy: true },
  });
  return close;
}
