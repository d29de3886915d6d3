import { loadContract } from '../../contract/bundled.ts';
import { createLogger } from '../../core/logger.ts';
import type { HttpLimits } from '../../node/http/create-server.ts';
import { listen } from '../../node/listen.ts';
import { clientAddressResolver } from '../../server/app/client-address.ts';
import { openService } from '../../server/service.ts';

/**
 * The real service on an in-memory database, served over HTTP on a free port by the same server
 * `npm start` runs, with every log line captured, and an enterprise key with limits out of the way.
 * `trustProxy` takes the client address from `X-Forwarded-For`, as `TRUST_PROXY` does.
 */
export async function startListeningApp(limits: Partial<HttpLimits> = {}, { trustProxy = false } = {}) {
  const logLines: string[] = [];
  const logger = createLogger('debug', (line) => logLines.push(line));
  const service = await openService({
    storage: { engine: 'sqlite', path: ':memory:' },
    logger,
    clientAddress: clientAddressResolver(trustProxy),
  });
  const { secret: apiKey } = await service.storage.keys.create({
    plan: 'enterprise',
    perMinute: 1_000_000,
    perDay: 1_000_000,
  });
  const maxBodyBytes = loadContract().largestBodyBytes;
  const listening = await listen(service.app.fetch, '127.0.0.1', 0, { logger, limits, maxBodyBytes });
  return {
    origin: listening.origin,
    apiKey,
    service,
    /** The log lines so far, parsed. */
    logged: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    close: async () => {
      await listening.close();
      service.close();
    },
  };
}

export type ListeningApp = Awaited<ReturnType<typeof startListeningApp>>;
