import { setTimeout as sleep } from 'node:timers/promises';
import { loadContract } from '../../contract/contract.ts';
import { createLogger } from '../../core/logger.ts';
import { batchedStdout } from '../../node/batched-stdout.ts';
import { exitWith } from '../../node/command-line.ts';
import type { Fetch } from '../../node/http/create-server.ts';
import { listen } from '../../node/listen.ts';
import { clientAddressResolver } from '../app/client-address.ts';
import { ensureDevelopmentKey } from '../keys/development-key.ts';
import { openService, type Service } from '../service.ts';
import { checkDatabaseFile } from '../storage/sqlite/file-check.ts';
import { type Config, readConfig } from './config.ts';
import { listenFailure } from './listen-failure.ts';

let config: Config;
try {
  config = readConfig(process.env);
} catch (error) {
  exitWith(error);
}
// One writer for every line, so the log and the messages below keep their order.
const stdout = batchedStdout();
const print = (line: string) => stdout(`${line}\n`);
const logger = createLogger(config.logLevel, stdout);

// The port is taken before the database is opened, so a busy port stops the start before anything
// is created or printed. A request that arrives in between waits for the service.
let serviceOpened: (service: Service) => void = () => {};
const serviceReady = new Promise<Service>((resolve) => (serviceOpened = resolve));
let handle: Fetch = async (request, env) => (await serviceReady).app.fetch(request, env);

async function start() {
  const serveOnceReady: Fetch = (request, env) => handle(request, env);
  const maxBodyBytes = loadContract().largestBodyBytes;
  const listening = await listen(serveOnceReady, config.host, config.port, { logger, maxBodyBytes }).catch(
    (error: unknown) => {
      throw listenFailure(error, config.host, config.port);
    },
  );
  if (config.storage.engine === 'sqlite') checkDatabaseFile(config.storage.path);
  const service = await openService({
    storage: config.storage,
    limiter: config.limiter,
    startTimeoutMs: config.startTimeoutMs,
    logger,
    clientAddress: clientAddressResolver(config.trustProxy),
    corsOrigins: config.corsOrigins,
  });
  return { listening, service };
}

const { listening, service } = await start().catch((error: unknown) => exitWith(error));
handle = service.app.fetch;
serviceOpened(service);

const { keys } = service.storage;
// The key goes to stderr, the terminal, never to stdout: that is the log's stream, which is
// collected and read by more people than may hold keys.
if ((await keys.count()) === 0) await ensureDevelopmentKey(keys, print, (line) => process.stderr.write(`${line}\n`));
else print('To create an API key: npm run keys -- create --plan free');
print(
  `Animal Store API listening on ${listening.origin}/v1 (data: ${service.storage.description}; rate limits ${service.limiters.description})`,
);
print(`Reference docs at ${listening.origin}/docs`);

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  print(`${signal} received: finishing requests in flight, then stopping.`);
  // /readyz fails from now on; requests are still taken for SHUTDOWN_DELAY_MS, until a load
  // balancer has seen it and stopped sending them.
  service.stopTakingRequests();
  void sleep(config.shutdownDelayMs)
    .then(() => listening.closeGracefully(config.shutdownTimeoutMs))
    .then(() => service.close())
    .finally(() => process.exit(0));
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
