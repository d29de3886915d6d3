import { clientAddressResolver } from './client-address.ts';
import { ConfigError, readConfig } from './config.ts';
import type { Fetch } from './http/create-server.ts';
import { ensureDevelopmentKey } from './keys/development-key.ts';
import { listen } from './listen.ts';
import { batchedStdout, createLogger } from './logger.ts';
import { openService, type Service } from './service.ts';
import { checkDatabaseFile, listenFailure, StartupError } from './startup-checks.ts';

function readConfigOrExit() {
  try {
    return readConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const config = readConfigOrExit();
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
  const listening = await listen(serveOnceReady, config.host, config.port, { logger }).catch((error: unknown) => {
    throw listenFailure(error, config.host, config.port);
  });
  checkDatabaseFile(config.databasePath);
  const service = openService({
    databasePath: config.databasePath,
    logger,
    clientAddress: clientAddressResolver(config.trustProxy),
    corsOrigins: config.corsOrigins,
  });
  return { listening, service };
}

const { listening, service } = await start().catch((error: unknown) => {
  if (!(error instanceof StartupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
handle = service.app.fetch;
serviceOpened(service);

if ((await service.keys.count()) === 0) await ensureDevelopmentKey(service.keys, print);
else print('To create an API key: npm run keys -- create --plan free');
print(`Animal Store API listening on ${listening.origin}/v1 (database: ${config.databasePath})`);
print(`Reference docs at ${listening.origin}/docs`);

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  print(`${signal} received: finishing requests in flight, then stopping.`);
  void listening.closeGracefully(config.shutdownTimeoutMs).finally(() => {
    service.close();
    process.exit(0);
  });
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
