import { loadContract } from '../../../contract/bundled.ts';
import { FREE_PLAN_KEYS_NEEDED } from '../../support/conformance/limited-keys.ts';
import { type RealServer, startRealServer } from '../../support/conformance/real-server.ts';

/** The one operation with a sunset. */
function sunsetInstant(): number {
  const deprecation = loadContract().operation('getPet').deprecation;
  if (!deprecation) throw new Error('getPet is not deprecated in the contract');
  return deprecation.sunsetAt;
}

export interface RealServers {
  main: RealServer;
  afterSunset: RealServer;
  storageDown: RealServer;
  internalFailure: RealServer;
  close(): Promise<void>;
}

/**
 * The server of the general suite (system clock), one whose clock stands at the sunset instant,
 * since a test cannot move the first one's time, one whose storage fails, and one whose storage
 * fails in a way nobody expected.
 */
export async function startRealServers(): Promise<RealServers> {
  const at = sunsetInstant();
  const [main, afterSunset, storageDown, internalFailure] = await Promise.all([
    startRealServer({ freePlanKeys: FREE_PLAN_KEYS_NEEDED }),
    startRealServer({ clock: { now: () => at } }),
    startRealServer({ failingStorage: 'unavailable' }),
    startRealServer({ failingStorage: 'unexpected' }),
  ]);
  const servers = [main, afterSunset, storageDown, internalFailure];
  return {
    main,
    afterSunset,
    storageDown,
    internalFailure,
    close: async () => void (await Promise.all(servers.map((server) => server.close()))),
  };
}
