import { serve } from '@hono/node-server';
import { clientAddressResolver } from './client-address.ts';
import { ConfigError, readConfig } from './config.ts';
import { ensureDevelopmentKey } from './keys/development-key.ts';
import { batchedStdout, createLogger } from './logger.ts';
import { openService } from './service.ts';

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
const { app, keys, close: closeDatabase } = openService({
  databasePath: config.databasePath,
  logger: createLogger(config.logLevel, stdout),
  clientAddress: clientAddressResolver(config.trustProxy),
  corsOrigins: config.corsOrigins,
});
await ensureDevelopmentKey(keys, print);

const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  print(`Animal Store API listening on http://${host}:${info.port}/v1 (database: ${config.databasePath})`);
  print(`Reference docs at http://${host}:${info.port}/docs`);
});

let stopping = false;
// A keep-alive connection that finishes its last request during shutdown would otherwise hold
// the exit back until its idle timeout.
server.on('request', (_request, response) => {
  response.once('finish', () => {
    if (stopping && 'closeIdleConnections' in server) setImmediate(() => server.closeIdleConnections());
  });
});
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  print(`${signal} received: finishing requests in flight, then stopping.`);
  // Requests still running after the grace period lose their connection rather than block the exit.
  setTimeout(() => {
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, config.shutdownTimeoutMs).unref();
  server.close(() => {
    closeDatabase();
    process.exit(0);
  });
  if ('closeIdleConnections' in server) server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
