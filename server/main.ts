import { clientAddressResolver } from './client-address.ts';
import { ConfigError, readConfig } from './config.ts';
import { createHttpServer, type Fetch } from './http/create-server.ts';
import { ensureDevelopmentKey } from './keys/development-key.ts';
import { bind, originOf } from './listen.ts';
import { batchedStdout, createLogger } from './logger.ts';
import { openService, type Service } from './service.ts';
import { StartupError, checkDatabaseFile, listenFailure } from './startup-checks.ts';

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
const server = createHttpServer((request, env) => handle(request, env), { logger });

async function start() {
  const address = await bind(server, config.host, config.port).catch((error: unknown) => {
    throw listenFailure(error, config.host, config.port);
  });
  checkDatabaseFile(config.databasePath);
  const service = openService({
    databasePath: config.databasePath,
    logger,
    clientAddress: clientAddressResolver(config.trustProxy),
    corsOrigins: config.corsOrigins,
  });
  return { address, service };
}

const { address, service } = await start().catch((error: unknown) => {
  if (!(error instanceof StartupError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
handle = service.app.fetch;
serviceOpened(service);

if ((await service.keys.count()) === 0) await ensureDevelopmentKey(service.keys, print);
else print('To create an API key: npm run keys -- create --plan free');
const origin = originOf(address);
print(`Animal Store API listening on ${origin}/v1 (database: ${config.databasePath})`);
print(`Reference docs at ${origin}/docs`);

let stopping = false;
// A keep-alive connection that finishes its last request during shutdown would otherwise hold
// the exit back until its idle timeout.
server.on('request', (_request, response) => {
  response.once('finish', () => {
    if (stopping) setImmediate(() => server.closeIdleConnections());
  });
});
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  print(`${signal} received: finishing requests in flight, then stopping.`);
  // Requests still running after the grace period lose their connection rather than block the exit.
  setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs).unref();
  server.close(() => {
    service.close();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
