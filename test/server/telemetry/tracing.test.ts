// Traces received as an OpenTelemetry collector receives them: an OTLP/HTTP endpoint on this
// machine, taking what the service exports in JSON (http/json) and in protobuf (the default).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/process/config.ts';
import { openTelemetry } from '../../../server/telemetry/telemetry.ts';
import { defined } from '../../support/defined.ts';
import { createTestApp } from '../../support/test-app.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

interface Export {
  path: string;
  contentType: string;
  body: Buffer;
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver on 127.0.0.1 that keeps every export and answers 200. */
async function startReceiver() {
  const received: Export[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks),
      });
      response.writeHead(200, { 'Content-Type': request.headers['content-type'] ?? 'application/json' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Every span of the JSON exports, with the service name of its resource. */
function spansOf(exports: Export[]): (JsonSpan & { service: unknown })[] {
  return exports.flatMap((exported) => {
    const body = JSON.parse(exported.body.toString('utf8')) as {
      resourceSpans: {
        resource: { attributes: { key: string; value: { stringValue?: string } }[] };
        scopeSpans: { spans: JsonSpan[] }[];
      }[];
    };
    return body.resourceSpans.flatMap((resourceSpans) => {
      const service = resourceSpans.resource.attributes.find(({ key }) => key === 'service.name')?.value.stringValue;
      return resourceSpans.scopeSpans.flatMap(({ spans }) => spans.map((span) => ({ ...span, service })));
    });
  });
}

const attribute = (span: JsonSpan, key: string) => span.attributes.find((entry) => entry.key === key)?.value;

describe('traces exported over OTLP/HTTP', { timeout: 30_000 }, () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  async function tracedApp(env: Record<string, string>) {
    const config = readConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '10',
      ...env,
    });
    const telemetry = await openTelemetry(config, '1.1.0');
    const app = await createTestApp({ telemetry, logLevel: 'info' });
    return {
      app,
      /** Sends the spans still waiting and closes the app. */
      async finish() {
        await telemetry.close();
        await app.close();
      },
    };
  }

  it('continues the caller’s trace with a server span `GET /pets` and a child span per storage and limiter call (http/json)', async () => {
    receiver.received.length = 0;
    const { app, finish } = await tracedApp({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'pets-eu' });
    const answer = await app.request('/v1/pets?limit=2', {
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
    });
    expect(answer.status).toBe(200);
    await finish();

    expect(receiver.received.map(({ path, contentType }) => ({ path, contentType }))).toContainEqual({
      path: '/v1/traces',
      contentType: 'application/json',
    });
    const spans = spansOf(receiver.received).filter((span) => span.traceId === TRACE_ID);
    const server = defined(
      spans.find((span) => span.name === 'GET /pets'),
      'the server span',
    );
    expect(server).toMatchObject({ parentSpanId: CALLER_SPAN, kind: 2, service: 'pets-eu' });
    expect(attribute(server, 'http.route')).toEqual({ stringValue: '/pets' });
    expect(attribute(server, 'http.response.status_code')).toEqual({ intValue: 200 });
    const children = spans.filter((span) => span.parentSpanId === server.spanId).map((span) => span.name);
    expect(children).toEqual(
      expect.arrayContaining(['storage api_keys.findActive', 'limiter keys.hit', 'storage pets.list']),
    );
    const line = app.logLines.map((text) => JSON.parse(text)).find((entry) => entry.path === '/v1/pets');
    expect(line).toMatchObject({ trace_id: TRACE_ID });
  });

  it('starts a trace for a request without traceparent, names a refused request by its route, and logs its trace id', async () => {
    receiver.received.length = 0;
    const { app, finish } = await tracedApp({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    const answer = await app.request('/v1/pets/7', { headers: { Authorization: 'Bearer nope' } });
    expect(answer.status).toBe(401);
    await finish();

    const server = defined(
      spansOf(receiver.received).find((span) => span.name === 'GET /pets/{petId}'),
      'the refused request’s span',
    );
    expect(server.parentSpanId ?? '').toBe('');
    const line = app.logLines.map((text) => JSON.parse(text)).find((entry) => entry.path === '/v1/pets/7');
    expect(line).toMatchObject({ trace_id: server.traceId, status: 401 });
  });

  it('exports protobuf by default, OTLP/HTTP’s own default', async () => {
    receiver.received.length = 0;
    const { app, finish } = await tracedApp({});
    await app.request('/v1/pets');
    await finish();
    const exported = defined(receiver.received[0], 'an export');
    expect(exported).toMatchObject({ path: '/v1/traces', contentType: 'application/x-protobuf' });
    // The trace id travels as its 16 bytes.
    expect(exported.body.length).toBeGreaterThan(16);
  });
});

describe('a server stopping while its collector does not answer', () => {
  it('stops without waiting for the export', { timeout: 8_000 }, async () => {
    // Takes connections and never answers: an export would wait for OTLP's own 10 s timeout.
    const silent = createNetServer(() => {});
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const telemetry = await openTelemetry(
        readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '10' }),
        '1.1.0',
      );
      const app = await createTestApp({ telemetry });
      await app.request('/v1/pets');
      await app.close();
      await telemetry.close();
    } finally {
      silent.close();
    }
  });
});

describe('tracing configuration', () => {
  it.each([
    ['no endpoint', {}, undefined],
    ['an endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, 'http://collector:4318/v1/traces'],
    [
      'a traces endpoint, taken as it is',
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom' },
      'http://collector:4318/custom',
    ],
    [
      'the SDK disabled',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' },
      undefined,
    ],
    [
      'no traces exporter',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' },
      undefined,
    ],
  ])('with %s exports to %s', (_, env, url) => {
    expect(readConfig(env).tracing?.url).toBe(url);
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      /OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json/,
    ],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_BSP_SCHEDULE_DELAY: 'soon' },
      /OTEL_BSP_SCHEDULE_DELAY/,
    ],
  ])('refuses %o, naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });
});
