// The service's Prometheus metrics (prom-client): every answered request by route, operation and
// status, the refusals and outages behind them, idempotent replays, SQLite's group commits, and
// prom-client's process and Node.js metrics. Served on a listener of their own (METRICS_PORT),
// never on the API's. Loaded only when that listener is configured.
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AnsweredRequest } from '../../core/observe.ts';
import type { DeliveryObserver, DeliveryResult } from '../events/delivery-worker.ts';
import type { MetricsConfig } from '../process/config.ts';
import type { StorageObserver } from '../storage/storage.ts';

/** OpenTelemetry's recommended boundaries for HTTP server durations, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** A group commit writes 1 to 256 creates. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/** The methods HTTP defines; any other is counted as `_OTHER` (OpenTelemetry's convention), so a client cannot add labels. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);
const RATE_LIMIT_CODES = ['rate_limited', 'key_banned'];
const DEPENDENCIES = ['storage', 'limiter'] as const;

export interface Metrics {
  /** Counts one answered request. */
  answered(answer: AnsweredRequest): void;
  /** Counts one answer the HTTP layer gave before the app (a malformed request, a timeout). */
  refused(status: number): void;
  /** What the storage reports: the size of each group commit. */
  storage: StorageObserver;
  /** What the webhook delivery worker reports: each attempt's result. */
  events: DeliveryObserver;
  /** The exposition, in Prometheus's text format, and its content type. */
  expose(): Promise<{ body: string; contentType: string }>;
}

export async function createMetrics(): Promise<Metrics> {
  const client = await import('prom-client');
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const counter = <Label extends string>(name: string, help: string, labelNames: readonly Label[] = []) =>
    new client.Counter<Label>({ name, help, labelNames, registers: [registry] });
  const histogram = <Label extends string>(
    name: string,
    help: string,
    buckets: number[],
    labelNames: readonly Label[] = [],
  ) => new client.Histogram<Label>({ name, help, buckets, labelNames, registers: [registry] });

  const duration = histogram(
    'http_server_request_duration_seconds',
    'Time from a request reaching the app to its answer, by method, route template, operationId and status.',
    DURATION_BUCKETS,
    ['method', 'route', 'operation', 'status'],
  );
  const refusals = counter(
    'animal_store_rate_limit_refusals_total',
    'Requests refused with 429, by code: rate_limited (a window used up) or key_banned.',
    ['code'],
  );
  const unavailable = counter(
    'animal_store_unavailable_total',
    'Requests answered 503 service_unavailable, by the dependency that could not do the work (storage, limiter).',
    ['dependency'],
  );
  const replays = counter(
    'animal_store_idempotent_replays_total',
    'Creates answered with the answer kept under their Idempotency-Key, instead of creating again.',
  );
  const httpRefusals = counter(
    'animal_store_http_refusals_total',
    'Requests the HTTP layer answered itself before the app, by status: malformed (400, 505), too large (431), too slow (408), an unknown Expect (417).',
    ['status'],
  );
  const batchSize = histogram(
    'animal_store_group_commit_batch_size',
    'Creates written by one SQLite transaction (group commit): how many writes shared one fsync.',
    BATCH_BUCKETS,
  );
  const webhookDeliveries = counter(
    'animal_store_webhook_deliveries_total',
    'Webhook delivery attempts, by result: delivered (2xx in time), retried (to be tried again on the schedule), failed (for good).',
    ['result'],
  );
  // Present from the start at 0, so a rate() or an alert on them has a series before the first event.
  for (const result of ['delivered', 'retried', 'failed']) webhookDeliveries.labels(result);
  for (const code of RATE_LIMIT_CODES) refusals.labels(code);
  for (const dependency of DEPENDENCIES) unavailable.labels(dependency);

  // One child per label set, looked up by a single string: prom-client's own lookup hashes the
  // labels object on every observation.
  const children = new Map<string, { observe(value: number): void }>();
  return {
    answered(answer) {
      const method = KNOWN_METHODS.has(answer.method) ? answer.method : '_OTHER';
      const status = String(answer.status);
      const key = `${method} ${answer.route} ${answer.operationId} ${status}`;
      let child = children.get(key);
      if (child === undefined) {
        child = duration.labels(method, answer.route, answer.operationId, status);
        children.set(key, child);
      }
      child.observe(answer.durationSeconds);
      if (answer.status === 429 && answer.errorCode !== undefined && RATE_LIMIT_CODES.includes(answer.errorCode))
        refusals.labels(answer.errorCode).inc();
      if (answer.unavailable !== undefined) unavailable.labels(answer.unavailable).inc();
      if (answer.replayed) replays.inc();
    },
    refused: (status) => httpRefusals.labels(String(status)).inc(),
    storage: { groupCommitBatch: (size) => batchSize.observe(size) },
    events: { attempted: (result: DeliveryResult) => webhookDeliveries.labels(result).inc() },
    async expose() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

export interface MetricsListener {
  /** `http://host:port`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The second listener: `GET /metrics` answers the exposition, anything else a 404. Apart from the
 * API's, so that the metrics are never reachable where the API is published, and a scrape never
 * counts against an API key or in the API's own metrics.
 */
export async function listenForMetrics(metrics: Metrics, { host, port }: MetricsConfig): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response
        .writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('Only GET /metrics is served here.\n');
      return;
    }
    metrics.expose().then(
      ({ body, contentType }) => {
        response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics failed.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The metrics listener has no address.');
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${hostPart}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
