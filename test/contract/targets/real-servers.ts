import { operation } from '../../spec/contract.ts';
import { startRealServer, type RealServer } from '../support/real-server.ts';

/** The one operation with a sunset; the contract states the date, the instant is its midnight UTC. */
function sunsetInstant(): number {
  const sunset = (operation('getPet').operation as { 'x-sunset'?: unknown })['x-sunset'];
  if (typeof sunset !== 'string') throw new Error('getPet has no x-sunset in the contract');
  return Date.parse(`${sunset}T00:00:00Z`);
}

/**
 * The server of the general suite (system clock) and a second one whose clock stands at the
 * sunset instant, since a test cannot move the first one's time.
 */
export async function startRealServers(): Promise<{ main: RealServer; afterSunset: RealServer; close(): Promise<void> }> {
  const at = sunsetInstant();
  const [main, afterSunset] = await Promise.all([startRealServer({ freePlanKeys: 2 }), startRealServer({ clock: { now: () => at } })]);
  return { main, afterSunset, close: async () => void (await Promise.all([main.close(), afterSunset.close()])) };
}
