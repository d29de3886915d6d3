// The service's telemetry as the configuration asks: Prometheus metrics (METRICS_PORT), OTLP
// traces (OTEL_EXPORTER_OTLP_ENDPOINT), both, or neither, in which case nothing of prom-client or
// OpenTelemetry is loaded and the app runs without an observer.
import type { RequestObserver } from '../../core/observe.ts';
import type { DeliveryObserver } from '../events/delivery-worker.ts';
import type { Config } from '../process/config.ts';
import type { StorageObserver } from '../storage/storage.ts';
import type { Metrics } from './metrics.ts';
import type { Tracing } from './tracing.ts';

/** What the service's assembly takes: an observer of every request, and the storage's and limiters' calls traced. */
export interface ServiceTelemetry {
  observe?: RequestObserver;
  storage?: StorageObserver;
  /** Counts webhook delivery attempts by result. */
  events?: DeliveryObserver;
  /** `target` with each call a child span of its request's span (tracing only). */
  traced?: Tracing['traced'];
}

interface Telemetry extends ServiceTelemetry {
  /** The registry the metrics listener exposes, when METRICS_PORT is set. */
  metrics: Metrics | undefined;
  /** Sends the spans still waiting. */
  close(): Promise<void>;
}

/** `version` is the service's, as its spans name it (the contract's). */
export async function openTelemetry({ metrics, tracing }: Pick<Config, 'metrics' | 'tracing'>, version: string) {
  const [openedMetrics, openedTracing] = await Promise.all([
    metrics ? import('./metrics.ts').then((module) => module.createMetrics()) : undefined,
    tracing ? import('./tracing.ts').then((module) => module.openTracing(tracing, version)) : undefined,
  ]);
  const telemetry: Telemetry = {
    metrics: openedMetrics,
    storage: openedMetrics?.storage,
    events: openedMetrics?.events,
    traced: openedTracing?.traced,
    close: async () => openedTracing?.close(),
  };
  if (openedMetrics || openedTracing)
    telemetry.observe = (c) => {
      const span = openedTracing?.observe(c);
      return {
        run: span?.run,
        answered(answer) {
          openedMetrics?.answered(answer);
          span?.answered(answer);
        },
      };
    };
  return telemetry;
}
