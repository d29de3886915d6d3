// Traces with OpenTelemetry, exported over OTLP/HTTP: a server span per request, named
// `<METHOD> <route>` and continuing the caller's W3C trace, with a child span for each call to the
// storage and to the rate limiter. Loaded only when an OTLP endpoint is configured: without one,
// no module of OpenTelemetry is imported and a request pays nothing for it.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../../core/http-types.ts';
import type { AnsweredRequest, ObservedRequest } from '../../core/observe.ts';
import type { TracingConfig } from '../process/config.ts';

/** How long a stopping server waits for its last spans to be sent. */
const CLOSE_TIMEOUT_MS = 2_000;

export interface Tracing {
  /** Starts the request's server span and runs the request inside it. */
  observe(c: AppContext): ObservedRequest;
  /**
   * `target` whose every method call is a child span of the current request's span (`storage
   * pets.list`, `limiter keys.hit`); calls outside a request are not traced.
   */
  traced<T extends object>(target: T, name: string): T;
  /** Sends the spans still waiting, then stops. */
  close(): Promise<void>;
}

export async function openTracing(config: TracingConfig, version: string): Promise<Tracing> {
  const [api, sdk, asyncHooks, resources, exporterModule] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/resources'),
    config.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } = api;
  // The exporter reads the rest of OpenTelemetry's variables itself (OTEL_EXPORTER_OTLP_HEADERS,
  // OTEL_EXPORTER_OTLP_TIMEOUT, ...).
  const exporter = new exporterModule.OTLPTraceExporter({ url: config.url });
  const provider = new sdk.TracerProvider({
    // Instances of one deployment share the service name; the host and a per-process id tell them apart.
    resource: resources.resourceFromAttributes({
      'service.name': config.serviceName,
      'service.version': version,
      'service.instance.id': randomUUID(),
      'host.name': hostname(),
    }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: config.scheduleDelayMs })],
  });
  const tracer = provider.getTracer('animal-store', version);
  // Its own context manager, not the global one: the request's span reaches the storage's and
  // the limiter's calls through AsyncLocalStorage, and nothing else in the process is affected.
  const contexts = new asyncHooks.AsyncLocalStorageContextManager().enable();

  function childSpan<T>(name: string, work: () => Promise<T>): Promise<T> {
    const parent = contexts.active();
    if (trace.getSpan(parent) === undefined) return work();
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT }, parent);
    return contexts.with(trace.setSpan(parent, span), work).then(
      (result) => {
        span.end();
        return result;
      },
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        span.end();
        throw error;
      },
    );
  }

  return {
    observe(c) {
      const remote = c.get('traceParent');
      const parent = remote
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: remote.traceId,
            spanId: remote.spanId,
            traceFlags: remote.flags & 1,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      // Named once the route is known; a request that fails before routing still gets its name.
      const span = tracer.startSpan(
        c.req.method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path } },
        parent,
      );
      c.set('traceId', span.spanContext().traceId);
      const active = trace.setSpan(parent, span);
      return {
        run: (rest) => contexts.with(active, rest),
        answered(answer: AnsweredRequest) {
          span.updateName(`${answer.method} ${answer.route}`);
          span.setAttributes({
            'http.route': answer.route,
            'http.response.status_code': answer.status,
            'animal_store.operation_id': answer.operationId,
            ...(answer.errorCode !== undefined && { 'error.type': answer.errorCode }),
          });
          // OpenTelemetry's HTTP convention: a server span is an error for a 5xx only.
          if (answer.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    traced(target, name) {
      return new Proxy(target, {
        get(object, property) {
          const value: unknown = Reflect.get(object, property, object);
          if (typeof value !== 'function') return value;
          const spanName = `${name}.${String(property)}`;
          return (...args: unknown[]) => childSpan(spanName, () => value.apply(object, args));
        },
      });
    },
    async close() {
      // A collector that does not answer must not hold the stop back beyond a moment.
      let timer: NodeJS.Timeout | undefined;
      const given = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS).unref();
      });
      await Promise.race([provider.shutdown().catch(() => {}), given]);
      clearTimeout(timer);
      contexts.disable();
    },
  };
}
