import { setTimeout as sleep } from 'node:timers/promises';
import { loadContract } from '../../contract/bundled.ts';
import { createLogger } from '../../core/logger.ts';
import { batchedStdout } from '../../node/batched-stdout.ts';
import { exitWith } from '../../node/command-line.ts';
import type { Fetch } from '../../node/http/create-server.ts';
import { listen } from '../../node/listen.ts';
import { clientAddressResolver } from '../app/client-address.ts';
import { hostResolver } from '../events/public-address.ts';
import { ensureDevelopmentKey } from '../keys/development-key.ts';
import { openService, type Service } from '../service.ts';
import { checkDatabaseFile } from '../storage/sqlite/file-check.ts';
import type { MetricsListener } from '../telemetry/metrics.ts';
import { openTelemetry } from '../telemetry/telemetry.ts';
import { type Config, readConfig } from './config.ts';
import { listenFailure } from './listen-failure.ts';

let config: Config;
try {
  config = readConfig(process.env);
} catch (error) {
  exitWith(error);
}
// One writer for every line, so the log and the messages below keep their order. Every line on
// stdout is one JSON object, the messages of the start and the stop too, so a log shipper needs no
// second parser; they are written at any LOG_LEVEL but silent, as the warnings of a start are.
const stdout = batchedStdout();
const logger = createLogger(config.logLevel, stdout);
const notices = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', stdout);
const notice = (event: string, message: string, fields: Record<string, unknown> = {}) =>
  notices.info({ event, message, ...fields });

/** The last line of the log: the server stopped, and why. */
function stopped(reason: string, level: 'info' | 'error' = 'info', fields: Record<string, unknown> = {}) {
  notices[level]({ event: 'stopped', reason, message: `The server stopped: ${reason}`, ...fields });
}

// The port is taken before the database is opened, so a busy port stops the start before anything
// is created or printed. A request that arrives in between waits for the service.
let serviceOpened: (service: Service) => void = () => {};
const serviceReady = new Promise<Service>((resolve) => (serviceOpened = resolve));
let handle: Fetch = async (request, env) => (await serviceReady).app.fetch(request, env);
// The HTTP layer listens before the metrics exist; its refusals count from then on.
let countRefusal: (status: number) => void = () => {};

async function start() {
  const serveOnceReady: Fetch = (request, env) => handle(request, env);
  const maxBodyBytes = loadContract().largestBodyBytes;
  const refused = (status: number) => countRefusal(status);
  const listening = await listen(serveOnceReady, config.host, config.port, { logger, maxBodyBytes, refused }).catch(
    (error: unknown) => {
      throw listenFailure(error, config.host, config.port);
    },
  );
  if (config.storage.engine === 'sqlite') checkDatabaseFile(config.storage.path);
  const contract = loadContract();
  const telemetry = await openTelemetry(config, contract.document.info.version);
  let metricsListener: MetricsListener | undefined;
  if (telemetry.metrics && config.metrics) {
    countRefusal = telemetry.metrics.refused;
    const { listenForMetrics } = await import('../telemetry/metrics.ts');
    const { host, port } = config.metrics;
    metricsListener = await listenForMetrics(telemetry.metrics, config.metrics).catch((error: unknown) => {
      throw listenFailure(error, host, port, { host: 'METRICS_HOST', port: 'METRICS_PORT' });
    });
  }
  const service = await openService({
    storage: config.storage,
    limiter: config.limiter,
    startTimeoutMs: config.startTimeoutMs,
    logger,
    clientAddress: clientAddressResolver(config.trustProxy),
    corsOrigins: config.corsOrigins,
    contract,
    telemetry,
    webhooksAllowPrivate: config.webhooksAllowPrivate,
    resolveHost: hostResolver({ timeoutMs: config.webhooksResolveTimeoutMs }),
  });
  return { listening, service, telemetry, metricsListener };
}

// A start that fails says why in one line on stderr, before anything is written to stdout.
const { listening, service, telemetry, metricsListener } = await start().catch((error: unknown) => exitWith(error));
handle = service.app.fetch;
serviceOpened(service);

const { keys } = service.storage;
// The key goes to stderr, the terminal, never to stdout: that is the log's stream, which is
// collected and read by more people than may hold keys.
if ((await keys.count()) === 0)
  await ensureDevelopmentKey(
    keys,
    (line) => notice('development_key_created', line),
    (line) => process.stderr.write(`${line}\n`),
  );
else notice('keys_hint', 'To create an API key: npm run keys -- create --plan free');
notice(
  'started',
  `Animal Store API listening on ${listening.origin}/v1 (data: ${service.storage.description}; rate limits ${service.limiters.description})`,
  {
    origin: listening.origin,
    docs: `${listening.origin}/docs/`,
    ...(metricsListener && { metrics: `${metricsListener.origin}/metrics` }),
    ...(config.tracing && { traces: config.tracing.url }),
  },
);

if (config.webhooksAllowPrivate)
  logger.warn({
    event: 'webhooks_allow_private',
    message:
      'WEBHOOKS_ALLOW_PRIVATE is set: webhook endpoints may be http and private, loopback or link-local addresses. For development and tests only.',
  });

let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  notice('stopping', `${signal} received: finishing requests in flight, then stopping.`, { signal });
  // /readyz fails from now on; requests are still taken for SHUTDOWN_DELAY_MS, until a load
  // balancer has seen it and stopped sending them.
  service.stopTakingRequests();
  void sleep(config.shutdownDelayMs)
    .then(() => listening.closeGracefully(config.shutdownTimeoutMs))
    .then(() => Promise.all([service.close(), metricsListener?.close(), telemetry.close()]))
    .then(
      () => stopped(`${signal} received`, 'info', { signal }),
      (error: unknown) => stopped(`${signal} received, and closing failed: ${String(error)}`, 'error', { signal }),
    )
    .finally(() => process.exit(0));
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
// A bug that escapes every request still ends the process (its state is unknown), with the
// reason as the log's last line; the pending lines are written on exit.
process.on('uncaughtException', (error) => {
  stopped('an unexpected error', 'error', { error: error.stack ?? String(error) });
  process.exit(1);
});
