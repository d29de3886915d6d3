import { operation } from '../../spec/contract.ts';
import { startRealServer, type RealServer } from '../support/real-server.ts';

/** The one operation with a sunset; the contract states the date, the instant is its midnight UTC. */
function sunsetInstant(): number {
  const sunset = (operation('getPet').operation as { 'x-sunset'?: unknown })['x-sunset'];
  if (typeof sunset !== 'string') throw new Error('getPet has no x-sunset in the contract');
  return Date.parse(`${sunset}T00:00:00Z`);
}

export interface RealServers {
  main: RealServer;
  afterSunset: RealServer;
  storageDown: RealServer;
  close(): Promise<void>;
}

/**
 * The server of the general suite (system clock), one whose clock stands at the sunset instant,
 * since a test cannot move the first one's time, and one whose pet storage fails.
 */
export async function startRealServers(): Promise<RealServers> {
  const at = sunsetInstant();
  const [main, afterSunset, storageDown] = await Promise.all([
    startRealServer({ freePlanKeys: 2 }),
    startRealServer({ clock: { now: () => at } }),
    startRealServer({ failingPetStorage: true }),
  ]);
  const servers = [main, afterSunset, storageDown];
  return { main, afterSunset, storageDown, close: async () => void (await Promise.all(servers.map((server) => server.close()))) };
}
