import type { TestProject } from 'vitest/node';
import { startValidatingProxy } from '../../../mock/prism.ts';
import { startRealServers } from './real-servers.ts';

/**
 * The `proxy` target: the real service behind `prism proxy --errors`, so that Prism validates
 * every answer against the contract; the sunset server gets a proxy of its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers = await startRealServers();
  const proxies = await Promise.allSettled([startValidatingProxy({ upstream: servers.main.origin }), startValidatingProxy({ upstream: servers.afterSunset.origin })]);
  const close = async () => {
    await Promise.all(proxies.map((proxy) => (proxy.status === 'fulfilled' ? proxy.value.close() : undefined)));
    await servers.close();
  };
  const [main, afterSunset] = proxies;
  if (main.status === 'rejected' || afterSunset.status === 'rejected') {
    await close();
    throw main.status === 'rejected' ? main.reason : (afterSunset as PromiseRejectedResult).reason;
  }
  project.provide('target', {
    name: 'proxy',
    baseUrl: `${main.value.url}/v1`,
    apiKey: servers.main.apiKey,
    freePlanKeys: servers.main.freePlanKeys,
    afterSunset: { baseUrl: `${afterSunset.value.url}/v1`, apiKey: servers.afterSunset.apiKey },
    capabilities: { stateful: true, preferHeader: false, validatedByProxy: true },
  });
  return close;
}
